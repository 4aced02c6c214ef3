/*
 * Copyright 2026 the Fenceline authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.fenceline.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.ReceiptView;
import dev.fenceline.chaos.history.Event.Type;
import dev.fenceline.chaos.history.History;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The linearizable check against a brute-force search of the same model (every subset of the
 * unknown calls taking effect, every order consistent with real time) on small random one-resource
 * histories: both must agree on every history. From a review that found false passes; {@code
 * -Dfuzz.iters=200000} runs it longer.
 */
class LinearizabilityFuzzTest {
  private static final Checker CHECKER = Checker.withBudget(Duration.ofSeconds(30));
  private static final String[] OPS = {"a", "b"};

  private static final class H {
    String f;
    long e;
    String o;
    String out;
    String rv;
    ReceiptView rcpt;
    long call;
    long ret;
    boolean unk;
  }

  private static ReceiptView receipt(String o, long e) {
    return new ReceiptView(e, "2026-01-01T00:00:00Z-" + o + e, Map.of());
  }

  @Test
  void randomHistoriesAgreeWithBruteForce() {
    disagreements(false);
  }

  @Test
  void perturbedHistoriesOfASimulatedDestinationAgreeWithBruteForce() {
    disagreements(true);
  }

  private static void disagreements(boolean simulated) {
    long seed0 = Long.getLong("fuzz.seed", 1);
    int iters = Integer.getInteger("fuzz.iters", 400);
    int pass = 0;
    int fail = 0;
    List<String> wrong = new ArrayList<>();
    for (int it = 0; it < iters; it++) {
      Random rnd = new Random(seed0 * 1_000_003L + it);
      int n = 2 + rnd.nextInt(Integer.getInteger("fuzz.n", 5));
      List<H> hs = new ArrayList<>();
      Map<String, ReceiptView> lookups = new TreeMap<>();
      long finE;
      String finV;
      if (simulated) {
        long e0 = 0;
        String v0 = null;
        Map<String, ReceiptView> ap = new HashMap<>();
        for (int i = 0; i < n; i++) {
          H h = new H();
          int k = rnd.nextInt(10);
          h.f = k < 2 ? "register" : k < 8 ? "write" : "read";
          h.e = Math.max(1, e0 + rnd.nextInt(3) - 1);
          h.o = OPS[rnd.nextInt(OPS.length)];
          long lp = i * 20L + 10;
          h.call = lp - rnd.nextInt(4) * 10 - 1 - i % 2;
          h.ret = lp + rnd.nextInt(4) * 10 + 1;
          h.unk = !h.f.equals("read") && rnd.nextInt(5) == 0;
          boolean effect = !h.unk || rnd.nextBoolean();
          switch (h.f) {
            case "register" -> {
              if (h.e >= e0) {
                h.out = "Registered";
                if (effect) {
                  e0 = h.e;
                }
              } else {
                h.out = "RejectedStale";
              }
            }
            case "read" -> {
              h.out = v0 == null ? "NotFound" : "Found";
              h.rv = v0;
            }
            default -> {
              if (h.e < e0) {
                h.out = "RejectedStale";
              } else if (ap.containsKey(h.o)) {
                h.out = "AlreadyApplied";
                h.rcpt = ap.get(h.o);
                if (effect) {
                  e0 = h.e;
                }
              } else {
                h.out = "Applied";
                h.rcpt = receipt(h.o, h.e);
                if (effect) {
                  e0 = h.e;
                  v0 = h.o;
                  ap.put(h.o, h.rcpt);
                }
              }
            }
          }
          if (h.unk) {
            h.out = null;
          }
          hs.add(h);
        }
        for (String o : OPS) {
          if (hs.stream().anyMatch(h -> h.f.equals("write") && h.o.equals(o))) {
            lookups.put(o, ap.get(o));
          }
        }
        finE = e0;
        finV = v0;
        if (rnd.nextInt(2) == 0) { // perturb one thing
          H h = hs.get(rnd.nextInt(n));
          switch (rnd.nextInt(7)) {
            case 0 -> h.e = 1 + rnd.nextInt(3);
            case 1 -> {
              if (!h.unk && h.f.equals("write")) {
                h.out = new String[] {"Applied", "AlreadyApplied", "RejectedStale"}[rnd.nextInt(3)];
                h.rcpt = h.out.equals("RejectedStale") ? null : receipt(h.o, 1 + rnd.nextInt(3));
              }
            }
            case 2 -> {
              if (h.f.equals("read")) {
                h.rv = rnd.nextBoolean() ? null : OPS[rnd.nextInt(2)];
                h.out = h.rv == null ? "NotFound" : "Found";
              }
            }
            case 3 -> finV = rnd.nextBoolean() ? null : OPS[rnd.nextInt(2)];
            case 4 -> finE = Math.max(0, finE - 1);
            case 5 -> {
              String o = OPS[rnd.nextInt(2)];
              if (lookups.containsKey(o)) {
                lookups.put(o, rnd.nextBoolean() ? null : receipt(o, 1 + rnd.nextInt(3)));
              }
            }
            default -> {
              long d = rnd.nextInt(5) * 10;
              h.call += d;
              h.ret += d;
            }
          }
        }
      } else {
        for (int i = 0; i < n; i++) {
          H h = new H();
          int k = rnd.nextInt(10);
          h.f = k < 2 ? "register" : k < 8 ? "write" : "read";
          h.e = 1 + rnd.nextInt(3);
          h.o = OPS[rnd.nextInt(OPS.length)];
          h.call = rnd.nextInt(30) * 10 + i;
          h.ret = h.call + rnd.nextInt(15) * 10 + 5;
          h.unk = !h.f.equals("read") && rnd.nextInt(4) == 0;
          switch (h.f) {
            case "register" -> h.out = rnd.nextInt(3) == 0 ? "RejectedStale" : "Registered";
            case "write" -> {
              int q = rnd.nextInt(6);
              h.out = q < 3 ? "Applied" : q < 5 ? "AlreadyApplied" : "RejectedStale";
              if (h.out.equals("Applied")) {
                h.rcpt = receipt(h.o, h.e);
              }
              if (h.out.equals("AlreadyApplied")) {
                h.rcpt = receipt(h.o, 1 + rnd.nextInt(3));
              }
            }
            default -> {
              int q = rnd.nextInt(3);
              h.out = q == 0 ? "NotFound" : "Found";
              h.rv = q == 0 ? null : OPS[rnd.nextInt(OPS.length)];
            }
          }
          hs.add(h);
        }
        for (String o : OPS) {
          if (hs.stream().noneMatch(h -> h.f.equals("write") && h.o.equals(o))) {
            continue;
          }
          int q = rnd.nextInt(4);
          if (q == 0) {
            continue; // no answer
          }
          lookups.put(o, q == 1 ? null : receipt(o, 1 + rnd.nextInt(3)));
        }
        finE = 1 + rnd.nextInt(3);
        finV = rnd.nextInt(3) == 0 ? null : OPS[rnd.nextInt(OPS.length)];
      }

      List<Event> ev = events(hs, lookups, finE, finV);
      boolean brute = brute(hs, lookups, finE, finV);
      Check check = CHECKER.check(ev).check("linearizable");
      if (brute) {
        pass++;
      } else {
        fail++;
      }
      if (brute != (check.status() == Check.Status.PASS) && wrong.size() < 3) {
        StringBuilder shown = new StringBuilder();
        shown.append(brute ? "false FAIL" : "false PASS").append(" it=").append(it);
        shown.append(' ').append(check.detail()).append('\n');
        ev.forEach(e -> shown.append("  ").append(History.toLine(e)).append('\n'));
        wrong.add(shown.toString());
      }
    }
    System.out.printf(
        "fuzz (%s): %d linearizable, %d not%n", simulated ? "simulated" : "random", pass, fail);
    assertThat(pass).isPositive();
    assertThat(fail).isPositive();
    assertThat(wrong).isEmpty();
  }

  private static List<Event> events(
      List<H> hs, Map<String, ReceiptView> lookups, long finE, String finV) {
    List<Event> ev = new ArrayList<>();
    ev.add(
        Event.of(Type.META, 0)
            .meta(Map.of("can-read", "true", "capabilities", "RESULT_LOOKUP"))
            .build());
    long last = 0;
    for (int i = 0; i < hs.size(); i++) {
      H h = hs.get(i);
      String p = "p" + i;
      Event.Builder inv =
          Event.of(Type.INVOKE, h.call + 1).process(p).index(0L).f(h.f).resource("r0");
      if (!h.f.equals("read")) {
        inv.epoch(h.e);
      }
      if (h.f.equals("write")) {
        inv.operation(h.o).value(h.o);
      }
      ev.add(inv.build());
      Event.Builder done;
      if (h.unk) {
        done =
            Event.of(Type.INFO, h.ret + 1)
                .process(p)
                .index(0L)
                .f(h.f)
                .resource("r0")
                .outcome("Unknown")
                .error("x");
      } else {
        done =
            Event.of(Type.OK, h.ret + 1).process(p).index(0L).f(h.f).resource("r0").outcome(h.out);
        if (h.rcpt != null) {
          done.receipt(h.rcpt);
        }
        if (h.rv != null) {
          done.value(h.rv);
        }
      }
      if (h.f.equals("write")) {
        done.operation(h.o).epoch(h.e);
      }
      if (h.f.equals("register")) {
        done.epoch(h.e);
      }
      ev.add(done.build());
      last = Math.max(last, h.ret + 1);
    }
    Event.Builder fin =
        Event.of(Type.FINAL, last + 100).resource("r0").epoch(finE).lookups(lookups);
    if (finV != null) {
      fin.value(finV);
    }
    ev.add(fin.build());
    return ev;
  }

  // ---- brute force ----
  private static final ReceiptView ANY = new ReceiptView(-99, "ANY", Map.of());

  private static boolean brute(
      List<H> hs, Map<String, ReceiptView> lookups, long finE, String finV) {
    List<Integer> unk = new ArrayList<>();
    for (int i = 0; i < hs.size(); i++) {
      if (hs.get(i).unk) {
        unk.add(i);
      }
    }
    for (int mask = 0; mask < (1 << unk.size()); mask++) {
      boolean[] incl = new boolean[hs.size()];
      for (int i = 0; i < hs.size(); i++) {
        incl[i] = !hs.get(i).unk;
      }
      for (int j = 0; j < unk.size(); j++) {
        if ((mask & (1 << j)) != 0) {
          incl[unk.get(j)] = true;
        }
      }
      if (dfs(hs, incl, new boolean[hs.size()], 0L, null, new HashMap<>(), lookups, finE, finV)) {
        return true;
      }
    }
    return false;
  }

  /** The end: the final value and epoch, and every answered operation as the lookup answered. */
  private static boolean endMatches(
      long e0,
      String v0,
      Map<String, ReceiptView> ap,
      Map<String, ReceiptView> lookups,
      long finE,
      String finV) {
    if (!Objects.equals(v0, finV) || finE < e0) {
      return false;
    }
    for (Map.Entry<String, ReceiptView> l : lookups.entrySet()) {
      ReceiptView applied = ap.get(l.getKey());
      if (l.getValue() == null
          ? applied != null
          : applied == null || !(applied == ANY || applied.equals(l.getValue()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean dfs(
      List<H> hs,
      boolean[] incl,
      boolean[] placed,
      long e0,
      String v0,
      Map<String, ReceiptView> ap,
      Map<String, ReceiptView> lookups,
      long finE,
      String finV) {
    boolean all = true;
    for (int i = 0; i < hs.size(); i++) {
      if (incl[i] && !placed[i]) {
        all = false;
      }
    }
    if (all) {
      return endMatches(e0, v0, ap, lookups, finE, finV);
    }
    for (int x = 0; x < hs.size(); x++) {
      if (!incl[x] || placed[x]) {
        continue;
      }
      boolean ok = true;
      for (int y = 0; y < hs.size(); y++) {
        if (y != x && incl[y] && !placed[y] && !hs.get(y).unk && hs.get(y).ret < hs.get(x).call) {
          ok = false;
        }
      }
      if (!ok) {
        continue;
      }
      H h = hs.get(x);
      List<Object[]> nexts = new ArrayList<>(); // {E, V, applied}
      switch (h.f) {
        case "register" -> {
          if (h.unk || h.out.equals("Registered")) {
            if (h.e >= e0) {
              nexts.add(new Object[] {h.e, v0, ap});
            }
          } else if (h.e < e0) {
            nexts.add(new Object[] {e0, v0, ap});
          }
        }
        case "read" -> {
          if (Objects.equals(v0, h.rv)) {
            nexts.add(new Object[] {e0, v0, ap});
          }
        }
        default -> {
          if (h.unk) {
            boolean answered = lookups.containsKey(h.o);
            ReceiptView found = lookups.get(h.o);
            if (answered && found == null) {
              break; // cannot take effect (never applied)
            }
            if (h.e >= e0 && ap.containsKey(h.o)) {
              nexts.add(new Object[] {h.e, v0, ap});
            }
            if (h.e >= e0 && !ap.containsKey(h.o) && (found == null || found.epoch() == h.e)) {
              Map<String, ReceiptView> m = new HashMap<>(ap);
              m.put(h.o, found == null ? ANY : found);
              nexts.add(new Object[] {h.e, h.o, m});
            }
          } else if (h.out.equals("Applied")) {
            if (h.e >= e0 && !ap.containsKey(h.o)) {
              Map<String, ReceiptView> m = new HashMap<>(ap);
              m.put(h.o, h.rcpt);
              nexts.add(new Object[] {h.e, h.o, m});
            }
          } else if (h.out.equals("AlreadyApplied")) {
            ReceiptView r = ap.get(h.o);
            if (h.e >= e0 && r != null && (r == ANY || r.equals(h.rcpt))) {
              nexts.add(new Object[] {h.e, v0, ap});
            }
          } else if (h.e < e0) {
            nexts.add(new Object[] {e0, v0, ap});
          }
        }
      }
      for (Object[] nx : nexts) {
        placed[x] = true;
        @SuppressWarnings("unchecked")
        Map<String, ReceiptView> m = (Map<String, ReceiptView>) nx[2];
        if (dfs(hs, incl, placed, (Long) nx[0], (String) nx[1], m, lookups, finE, finV)) {
          placed[x] = false;
          return true;
        }
        placed[x] = false;
      }
    }
    return false;
  }
}
