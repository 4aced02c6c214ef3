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

import static java.util.Objects.requireNonNull;

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.ReceiptView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks a chaos history (see {@code docs/chaos.md#the-checks}): per resource, epochs are unique
 * and ordered, no stale write takes effect after a newer epoch was registered, every operation
 * takes effect at most once with one receipt, every acknowledged write is found at the end, every
 * unknown outcome is resolved, the history is linearizable against a fenced destination, and every
 * read observes a published value. Works on a history file alone; thread-safe.
 */
public final class Checker {

  /** The checks' names, in the order of {@link CheckResult#checks()}. */
  public static final List<String> CHECKS =
      List.of(
          "epochs-unique-and-ordered",
          "no-stale-write-after-newer",
          "applied-once",
          "acknowledged-found",
          "unknown-resolved",
          "linearizable",
          "reads-published");

  /** The fault kinds that end a fault rather than start one. */
  private static final Set<String> FAULT_ENDS = Set.of("resume", "heal", "restart");

  private static final int AROUND = 5;

  private final Duration budget;

  private Checker(Duration budget) {
    this.budget = budget;
  }

  /** {@return a checker whose linearizability search gives up after 60 s in total} */
  public static Checker defaults() {
    return new Checker(Duration.ofSeconds(60));
  }

  /**
   * {@return a checker whose linearizability search gives up after {@code linearizability} in total
   * (over all resources); the check is then UNKNOWN, never PASS}
   *
   * @throws IllegalArgumentException if the budget is not positive
   */
  public static Checker withBudget(Duration linearizability) {
    requireNonNull(linearizability, "linearizability budget is null");
    if (linearizability.isNegative() || linearizability.isZero()) {
      throw new IllegalArgumentException(
          "Cannot check with a linearizability budget of "
              + linearizability
              + ": it must be positive (e.g. PT60S)");
    }
    return new Checker(linearizability);
  }

  /**
   * Checks {@code history} (the lines of one run, in any order; they are ordered by time).
   *
   * @throws NullPointerException if {@code history} is null
   * @throws IllegalArgumentException if the history has no META line or no FINAL line (a worker's
   *     file, or a run cut short before the driver's final lookups): its checks would pass for want
   *     of what they check
   */
  public CheckResult check(List<Event> history) {
    requireNonNull(history, "history is null");
    List<String> missing = new ArrayList<>();
    if (history.stream().noneMatch(e -> e.type() == Event.Type.META)) {
      missing.add("no meta line");
    }
    if (history.stream().noneMatch(e -> e.type() == Event.Type.FINAL)) {
      missing.add("no final line");
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          "not a complete chaos history: "
              + String.join(" / ", missing)
              + "; was the run cut short? (a history.jsonl starts with the driver's meta line and"
              + " ends with one final line per resource)");
    }
    Run run = new Run(history);
    List<Check> checks = new ArrayList<>();
    Violation first = null;
    List<Finding> findings =
        List.of(
            run.epochs(),
            run.staleWrites(),
            run.appliedOnce(),
            run.acknowledgedFound(),
            run.unknownResolved(),
            run.linearizable(budget),
            run.readsPublished());
    for (int i = 0; i < findings.size(); i++) {
      Finding f = findings.get(i);
      checks.add(new Check(CHECKS.get(i), f.status(), f.detail()));
      if (first == null && f.status() == Check.Status.FAIL && f.first != null) {
        first = f.first;
      }
    }
    return new CheckResult(checks, run.counts(), Optional.ofNullable(first));
  }

  /** {@return a receipt for a message: its epoch, time and attributes} */
  static String describeReceipt(ReceiptView r) {
    return "epoch "
        + r.epoch()
        + " recorded "
        + r.recordedAt()
        + (r.attributes().isEmpty() ? "" : " " + new TreeMap<>(r.attributes()));
  }

  /** What one check found: the violations (first kept in full), or a pass detail. */
  private static final class Finding {
    final String check;
    int violations;
    Violation first;
    String pass;
    String unknown;

    Finding(String check) {
      this.check = check;
    }

    void violation(Violation v) {
      violations++;
      if (first == null) {
        first = v;
      }
    }

    Check.Status status() {
      return violations > 0
          ? Check.Status.FAIL
          : unknown != null ? Check.Status.UNKNOWN : Check.Status.PASS;
    }

    String detail() {
      if (violations > 0) {
        return (violations == 1 ? "" : violations + " violations, first: ") + first.message();
      }
      return unknown != null ? unknown : pass;
    }
  }

  /** A history split into operations per resource. */
  private static final class Run {
    final Map<String, String> meta = new HashMap<>();
    final long t0;
    final List<Op> ops = new ArrayList<>();
    final Map<String, List<Op>> byResource = new TreeMap<>();
    final Map<String, Event> finals = new TreeMap<>();
    final Map<String, List<Event>> lines = new TreeMap<>();
    final Map<Event, Integer> position = new IdentityHashMap<>();
    final List<Event> faults = new ArrayList<>();
    final Map<Event, Event> completions = new IdentityHashMap<>();
    final boolean hasLookup;
    final boolean canRead;
    long linearizabilityMillis;

    Run(List<Event> history) {
      List<Event> sorted = new ArrayList<>(history);
      sorted.sort(Comparator.comparingLong(Event::t)); // stable: an invoke stays before its end
      t0 = sorted.isEmpty() ? 0 : sorted.get(0).t();
      Map<String, Event> pending = new LinkedHashMap<>();
      List<Event[]> pairs = new ArrayList<>();
      for (Event e : sorted) {
        if (e.resource() != null) {
          List<Event> l = lines.computeIfAbsent(e.resource(), k -> new ArrayList<>());
          position.put(e, l.size());
          l.add(e);
        }
        switch (e.type()) {
          case META -> {
            if (e.meta() != null) {
              meta.putAll(e.meta());
            }
          }
          case FAULT -> faults.add(e);
          case FINAL -> {
            if (e.resource() != null) {
              finals.put(e.resource(), e);
            }
          }
          case INVOKE -> {
            // the same process and index again: the first one never completed
            pending.put(key(e), e);
            pairs.add(new Event[] {e});
          }
          default -> {
            Event invoke = pending.remove(key(e));
            if (invoke != null) {
              completions.put(invoke, e);
            }
          }
        }
      }
      for (Event[] pair : pairs) {
        Op op = new Op(ops.size(), pair[0], completions.get(pair[0]));
        ops.add(op);
        if (op.resource != null) {
          byResource.computeIfAbsent(op.resource, k -> new ArrayList<>()).add(op);
        }
      }
      for (String resource : finals.keySet()) {
        byResource.putIfAbsent(resource, new ArrayList<>()); // checked too: its final value, epoch
      }
      for (List<Op> l : byResource.values()) {
        l.sort(Comparator.<Op>comparingLong(o -> o.call).thenComparingInt(o -> o.seq));
      }
      hasLookup = decideHasLookup();
      canRead = decideCanRead();
    }

    private static String key(Event e) {
      return e.process() + "\u0000" + e.index();
    }

    private boolean decideHasLookup() {
      String caps = meta.get("capabilities");
      if (caps != null) {
        return caps.toUpperCase(Locale.ROOT).contains("RESULT_LOOKUP");
      }
      String lookup = meta.get("lookup");
      if (lookup != null) {
        return Boolean.parseBoolean(lookup);
      }
      return finals.values().stream().anyMatch(f -> f.lookups() != null);
    }

    private boolean decideCanRead() {
      String read = meta.getOrDefault("canRead", meta.get("can-read"));
      if (read != null) {
        return Boolean.parseBoolean(read);
      }
      return ops.stream().anyMatch(o -> o.is(Event.READ))
          || finals.values().stream().anyMatch(f -> f.value() != null);
    }

    String time(long t) {
      return t == Long.MAX_VALUE ? "never" : String.format(Locale.ROOT, "+%.3fs", (t - t0) / 1e9);
    }

    /** Up to {@value #AROUND} lines of the resource before and after each of the operations. */
    Violation violation(String check, String resource, String message, Op... culprits) {
      List<Event> l = lines.getOrDefault(resource, List.of());
      TreeSet<Integer> keep = new TreeSet<>();
      List<Event> anchors = new ArrayList<>();
      for (Op op : culprits) {
        if (op != null) {
          anchors.add(op.invoke);
          if (op.completion != null) {
            anchors.add(op.completion);
          }
        }
      }
      if (anchors.isEmpty() && finals.containsKey(resource)) {
        anchors.add(finals.get(resource));
      }
      for (Event a : anchors) {
        Integer i = position.get(a);
        if (i != null) {
          for (int k = Math.max(0, i - AROUND); k <= Math.min(l.size() - 1, i + AROUND); k++) {
            keep.add(k);
          }
        }
      }
      List<Event> around = new ArrayList<>();
      for (int k : keep) {
        around.add(l.get(k));
      }
      for (Event a : anchors) {
        if (!around.contains(a)) {
          around.add(a); // a completion line without the resource
        }
      }
      around.sort(Comparator.comparingLong(Event::t));
      return new Violation(check, resource, message, around);
    }

    String at(Op op) {
      return op.label() + " (invoked " + time(op.call) + ", returned " + time(op.ret) + ")";
    }

    // 1
    Finding epochs() {
      Finding f = new Finding(CHECKS.get(0));
      int acquisitions = 0;
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        List<Op> acquired = new ArrayList<>();
        Map<Long, Op> seen = new HashMap<>();
        for (Op op : r.getValue()) {
          if (op.is(Event.ACQUIRE) && op.okWith(Event.ACQUIRED) && op.epoch != null) {
            acquired.add(op);
            Op before = seen.putIfAbsent(op.epoch, op);
            if (before != null) {
              f.violation(
                  violation(
                      f.check,
                      r.getKey(),
                      String.format(
                          "%s: epoch %d was handed out twice: %s and %s",
                          r.getKey(), op.epoch, at(before), at(op)),
                      before,
                      op));
            }
          }
        }
        acquisitions += acquired.size();
        List<Op> byReturn = new ArrayList<>(acquired);
        byReturn.sort(Comparator.comparingLong(o -> o.ret));
        int j = 0;
        Op max = null;
        for (Op b : acquired) { // sorted by call
          while (j < byReturn.size() && byReturn.get(j).ret < b.call) {
            Op a = byReturn.get(j++);
            if (max == null || a.epoch > max.epoch) {
              max = a;
            }
          }
          if (max != null && max.epoch > b.epoch) {
            f.violation(
                violation(
                    f.check,
                    r.getKey(),
                    String.format(
                        "%s: %s was invoked after %s completed but got a lower epoch",
                        r.getKey(), at(b), at(max)),
                    max,
                    b));
          }
        }
      }
      f.pass =
          acquisitions
              + " acquisitions on "
              + byResource.size()
              + " resources: every epoch unique and later acquisitions higher";
      return f;
    }

    /**
     * The write the final lookup attributes an applied operation to, if its outcome was unknown.
     */
    Map<String, Op> attributedUnknowns(String resource, List<Op> l) {
      Map<String, List<Op>> writes = writesByOperation(l);
      Event fin = finals.get(resource);
      Map<String, Op> result = new TreeMap<>();
      if (fin == null || fin.lookups() == null) {
        return result;
      }
      for (Map.Entry<String, List<Op>> w : writes.entrySet()) {
        ReceiptView found = fin.lookups().get(w.getKey());
        if (found == null || w.getValue().stream().anyMatch(o -> o.okWith(Event.APPLIED))) {
          continue;
        }
        w.getValue().stream()
            .filter(o -> o.unknown() && o.epoch != null && o.epoch == found.epoch())
            .findFirst() // the earliest: the most lenient for the stale-write check
            .ifPresent(o -> result.put(w.getKey(), o));
      }
      return result;
    }

    static Map<String, List<Op>> writesByOperation(List<Op> l) {
      Map<String, List<Op>> writes = new TreeMap<>();
      for (Op op : l) {
        if (op.is(Event.WRITE) && op.operation != null && !op.failed()) {
          writes.computeIfAbsent(op.operation, k -> new ArrayList<>()).add(op);
        }
      }
      return writes;
    }

    // 2
    Finding staleWrites() {
      Finding f = new Finding(CHECKS.get(1));
      int writes = 0;
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        List<Op> newer = new ArrayList<>();
        List<Op> applied = new ArrayList<>();
        for (Op op : r.getValue()) {
          if (op.epoch == null) {
            continue;
          }
          if ((op.is(Event.REGISTER) || op.is(Event.WRITE))
              && op.okWith(Event.REJECTED_STALE)
              && op.completion.current() != null
              && op.completion.current() <= op.epoch) {
            f.violation(
                violation(
                    f.check,
                    r.getKey(),
                    String.format(
                        "%s: %s was rejected as stale with current epoch %d, which is not above its"
                            + " epoch %d: the destination's answer is untrue",
                        r.getKey(), at(op), op.completion.current(), op.epoch),
                    op));
          }
          if ((op.is(Event.REGISTER) && op.okWith(Event.REGISTERED))
              || (op.is(Event.WRITE)
                  && (op.okWith(Event.APPLIED) || op.okWith(Event.ALREADY_APPLIED)))) {
            newer.add(op);
          }
          if (op.is(Event.WRITE) && op.okWith(Event.APPLIED)) {
            applied.add(op);
          }
        }
        applied.addAll(attributedUnknowns(r.getKey(), r.getValue()).values());
        applied.sort(Comparator.<Op>comparingLong(o -> o.call).thenComparingInt(o -> o.seq));
        writes += applied.size();
        newer.sort(Comparator.comparingLong(o -> o.ret));
        int j = 0;
        Op max = null;
        for (Op w : applied) {
          while (j < newer.size() && newer.get(j).ret < w.call) {
            Op a = newer.get(j++);
            if (max == null || a.epoch > max.epoch) {
              max = a;
            }
          }
          if (max != null && max.epoch > w.epoch) {
            String how =
                w.unknown()
                    ? " (its outcome was unknown; the final lookup found it applied under epoch "
                        + w.epoch
                        + ")"
                    : "";
            f.violation(
                violation(
                    f.check,
                    r.getKey(),
                    String.format(
                        "%s: stale write %s took effect%s although %s had completed before it was"
                            + " invoked",
                        r.getKey(), at(w), how, at(max)),
                    max,
                    w));
          }
        }
      }
      f.pass = writes + " applied writes: none stale after a newer epoch was registered";
      return f;
    }

    // 3
    Finding appliedOnce() {
      Finding f = new Finding(CHECKS.get(2));
      int operations = 0;
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        String res = r.getKey();
        Event fin = finals.get(res);
        for (Map.Entry<String, List<Op>> w : writesByOperation(r.getValue()).entrySet()) {
          operations++;
          String o = w.getKey();
          List<Op> applied = w.getValue().stream().filter(op -> op.okWith(Event.APPLIED)).toList();
          if (applied.size() > 1) {
            f.violation(
                violation(
                    f.check,
                    res,
                    String.format(
                        "%s: operation %s was Applied %d times: %s and %s",
                        res, o, applied.size(), at(applied.get(0)), at(applied.get(1))),
                    applied.get(0),
                    applied.get(1)));
            continue;
          }
          Map<ReceiptView, String> receipts = new LinkedHashMap<>();
          Op firstWithReceipt = null;
          for (Op op : w.getValue()) {
            if ((op.okWith(Event.APPLIED) || op.okWith(Event.ALREADY_APPLIED))
                && op.receipt() != null) {
              receipts.putIfAbsent(op.receipt(), op.process + "#" + op.index);
              if (firstWithReceipt == null) {
                firstWithReceipt = op;
              }
            }
          }
          ReceiptView found = fin == null || fin.lookups() == null ? null : fin.lookups().get(o);
          if (found != null) {
            receipts.putIfAbsent(found, "the final lookup");
          }
          if (receipts.size() > 1) {
            List<String> shown = new ArrayList<>();
            receipts.forEach((rv, who) -> shown.add(who + ": " + describe(rv)));
            f.violation(
                violation(
                    f.check,
                    res,
                    String.format(
                        "%s: operation %s has %d different receipts (one effect has one receipt):"
                            + " %s",
                        res, o, receipts.size(), String.join("; ", shown)),
                    firstWithReceipt));
            continue;
          }
          boolean anyUnknown = w.getValue().stream().anyMatch(Op::unknown);
          if (applied.isEmpty()) {
            Op already =
                w.getValue().stream()
                    .filter(op -> op.okWith(Event.ALREADY_APPLIED))
                    .findFirst()
                    .orElse(null);
            if (already != null && !anyUnknown) {
              f.violation(
                  violation(
                      f.check,
                      res,
                      String.format(
                          "%s: %s reports operation %s already applied, but no write of it was"
                              + " Applied or had an unknown outcome",
                          res, at(already), o),
                      already));
              continue;
            }
            if (found != null
                && w.getValue().stream()
                    .noneMatch(
                        op -> op.unknown() && op.epoch != null && op.epoch == found.epoch())) {
              f.violation(
                  violation(
                      f.check,
                      res,
                      String.format(
                          "%s: the final lookup finds operation %s applied under epoch %d, but no"
                              + " write of it with epoch %d was Applied or had an unknown outcome",
                          res, o, found.epoch(), found.epoch()),
                      w.getValue().get(0)));
            }
          }
        }
        // operations the lookup finds applied that no Applied or unknown write can explain
        if (fin != null && fin.lookups() != null) {
          Map<String, List<Op>> writes = writesByOperation(r.getValue());
          for (Map.Entry<String, ReceiptView> l : new TreeMap<>(fin.lookups()).entrySet()) {
            String o = l.getKey();
            ReceiptView found = l.getValue();
            if (found == null || writes.containsKey(o)) {
              continue;
            }
            Op failed =
                r.getValue().stream()
                    .filter(op -> op.is(Event.WRITE) && o.equals(op.operation) && op.failed())
                    .findFirst()
                    .orElse(null);
            String message =
                failed == null
                    ? String.format(
                        "%s: the final lookup finds operation %s applied (%s), but no write of it"
                            + " was made on %s",
                        res, o, describe(found), res)
                    : String.format(
                        "%s: operation %s: %s answered FAIL and so did every other write of it (a"
                            + " FAIL answer said nothing changed), but the final lookup finds it"
                            + " applied (%s)",
                        res, o, at(failed), describe(found));
            f.violation(violation(f.check, res, message, failed));
          }
        }
      }
      f.pass = operations + " written operations: each applied at most once, with one receipt";
      return f;
    }

    static String describe(ReceiptView r) {
      return describeReceipt(r);
    }

    // 4
    Finding acknowledgedFound() {
      Finding f = new Finding(CHECKS.get(3));
      if (!hasLookup) {
        f.unknown =
            "not checked: the destination has no lookup (no RESULT_LOOKUP in the meta line's"
                + " capabilities), so no acknowledged write could be confirmed";
        return f;
      }
      int acknowledged = 0;
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        String res = r.getKey();
        Event fin = finals.get(res);
        for (Op op : r.getValue()) {
          if (!op.is(Event.WRITE)
              || op.operation == null
              || !(op.okWith(Event.APPLIED) || op.okWith(Event.ALREADY_APPLIED))) {
            continue;
          }
          acknowledged++;
          String problem;
          if (fin == null) {
            problem = "there is no FINAL line for " + res + " (the run did not finish)";
          } else if (fin.lookups() == null || !fin.lookups().containsKey(op.operation)) {
            problem =
                "the final lookup of operation "
                    + op.operation
                    + " gave no answer"
                    + (fin.error() == null ? "" : " (" + fin.error() + ")");
          } else if (fin.lookups().get(op.operation) == null) {
            problem = "the final lookup reports operation " + op.operation + " never applied";
          } else if (op.receipt() != null
              && !op.receipt().equals(fin.lookups().get(op.operation))) {
            problem =
                "the final lookup finds operation "
                    + op.operation
                    + " with another receipt ("
                    + describe(fin.lookups().get(op.operation))
                    + " instead of "
                    + describe(op.receipt())
                    + ")";
          } else {
            continue;
          }
          f.violation(
              violation(
                  f.check,
                  res,
                  String.format("%s: acknowledged %s is not confirmed: %s", res, at(op), problem),
                  op));
        }
      }
      f.pass = acknowledged + " acknowledged writes: all found by the final lookup";
      return f;
    }

    long landed;
    long notLanded;
    long unresolved;

    // 5
    Finding unknownResolved() {
      Finding f = new Finding(CHECKS.get(4));
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        String res = r.getKey();
        Event fin = finals.get(res);
        for (Map.Entry<String, List<Op>> w : writesByOperation(r.getValue()).entrySet()) {
          Op unknown = w.getValue().stream().filter(Op::unknown).findFirst().orElse(null);
          if (unknown == null) {
            continue;
          }
          String o = w.getKey();
          boolean answered = fin != null && fin.lookups() != null && fin.lookups().containsKey(o);
          if (!answered) {
            unresolved++;
            if (hasLookup) {
              f.violation(
                  violation(
                      f.check,
                      res,
                      String.format(
                          "%s: operation %s had a write with an unknown outcome, %s, and %s",
                          res,
                          o,
                          at(unknown),
                          fin == null
                              ? "there is no FINAL line (the run did not finish)"
                              : "the final lookup gave no answer"
                                  + (fin.error() == null ? "" : " (" + fin.error() + ")")),
                      unknown));
            }
          } else if (fin.lookups().get(o) != null
              && w.getValue().stream().noneMatch(op -> op.okWith(Event.APPLIED))) {
            landed++;
          } else {
            notLanded++;
          }
        }
      }
      f.pass =
          String.format(
              "%d operations with unknown-outcome writes: %d landed, %d not landed, %d unresolved",
              landed + notLanded + unresolved, landed, notLanded, unresolved);
      if (!hasLookup) {
        f.unknown =
            String.format(
                "not checked: the destination has no lookup (no RESULT_LOOKUP in the meta line's"
                    + " capabilities), so %d operations with unknown-outcome writes stay"
                    + " unresolved",
                unresolved);
      }
      return f;
    }

    // 6
    Finding linearizable(Duration budget) {
      Finding f = new Finding(CHECKS.get(5));
      long start = System.nanoTime();
      long deadline = start + budget.toNanos();
      int total = 0;
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        String res = r.getKey();
        Linearizability.Result result =
            Linearizability.check(
                res, r.getValue(), finals.get(res), canRead, deadline, this::time);
        total += result.total();
        if (result.status() == Check.Status.FAIL) {
          f.violation(violation(f.check, res, result.detail(), result.culprit()));
        } else if (result.status() == Check.Status.UNKNOWN && f.unknown == null) {
          f.unknown = result.detail();
        }
      }
      linearizabilityMillis = (System.nanoTime() - start) / 1_000_000;
      f.pass =
          String.format(
              "%d operations on %d resources linearizable (%d ms)",
              total, byResource.size(), linearizabilityMillis);
      return f;
    }

    // 7
    Finding readsPublished() {
      Finding f = new Finding(CHECKS.get(6));
      int reads = 0;
      for (Map.Entry<String, List<Op>> r : byResource.entrySet()) {
        String res = r.getKey();
        Event fin = finals.get(res);
        Set<String> published = new LinkedHashSet<>();
        for (Op op : r.getValue()) {
          if (!op.is(Event.WRITE) || op.value == null) {
            continue;
          }
          if (op.okWith(Event.APPLIED)) {
            published.add(op.value);
          } else if (op.unknown()) {
            boolean neverApplied =
                fin != null
                    && fin.lookups() != null
                    && fin.lookups().containsKey(op.operation)
                    && fin.lookups().get(op.operation) == null;
            if (!neverApplied) {
              published.add(op.value);
            }
          }
        }
        for (Op op : r.getValue()) {
          if (op.is(Event.READ) && op.okWith(Event.FOUND)) {
            reads++;
            if (op.value == null || !published.contains(op.value)) {
              f.violation(
                  violation(
                      f.check,
                      res,
                      String.format(
                          "%s: %s observed a value that no write published (no write of it was"
                              + " Applied or may have been)",
                          res, at(op)),
                      op));
            }
          }
        }
        if (fin != null && fin.value() != null && !published.contains(fin.value())) {
          f.violation(
              violation(
                  f.check,
                  res,
                  String.format(
                      "%s: the final value %s was never published by a write", res, fin.value())));
        }
      }
      f.pass = reads + " reads and the final values: every value observed was published";
      return f;
    }

    Counts counts() {
      Map<String, Map<String, Long>> operations = new TreeMap<>();
      long stale = 0;
      for (Op op : ops) {
        String fn = op.f == null ? "(none)" : op.f;
        operations.computeIfAbsent(fn, k -> new TreeMap<>()).merge(op.outcome(), 1L, Long::sum);
        if (op.okWith(Event.REJECTED_STALE)) {
          stale++;
        }
      }
      Map<String, Long> faultKinds = new TreeMap<>();
      for (Event e : faults) {
        if (e.fault() != null && !FAULT_ENDS.contains(e.fault())) {
          faultKinds.merge(e.fault(), 1L, Long::sum);
        }
      }
      return new Counts(
          operations,
          faultKinds,
          takeovers(),
          stale,
          landed,
          notLanded,
          unresolved,
          linearizabilityMillis);
    }

    long takeovers() {
      long takeovers = 0;
      for (List<Op> l : byResource.values()) {
        List<Op> acquired = new ArrayList<>();
        Map<String, List<Long>> releases = new HashMap<>();
        for (Op op : l) {
          if (op.is(Event.ACQUIRE) && op.okWith(Event.ACQUIRED)) {
            acquired.add(op);
          } else if (op.is(Event.RELEASE) && op.ok()) {
            releases.computeIfAbsent(op.process, k -> new ArrayList<>()).add(op.ret);
          }
        }
        acquired.sort(Comparator.comparingLong(o -> o.ret));
        for (List<Long> times : releases.values()) {
          times.sort(null);
        }
        for (int i = 1; i < acquired.size(); i++) {
          Op before = acquired.get(i - 1);
          Op now = acquired.get(i);
          List<Long> times = releases.getOrDefault(before.process, List.of());
          int k = lowerBound(times, before.ret);
          boolean released = k < times.size() && times.get(k) <= now.ret;
          if (!released) {
            takeovers++;
          }
        }
      }
      return takeovers;
    }

    private static int lowerBound(List<Long> sorted, long value) {
      int lo = 0;
      int hi = sorted.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (sorted.get(mid) < value) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }
}
