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

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.ReceiptView;
import dev.fenceline.chaos.history.Event.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Hand-written histories for the checker's tests; times are milliseconds. */
final class HistoryBuilder {
  private final List<Event> events = new ArrayList<>();
  private final Map<String, Long> nextIndex = new HashMap<>();
  private final Map<String, ReceiptView> receipts = new HashMap<>();
  private final Map<String, Set<String>> written = new LinkedHashMap<>();
  private final Set<String> applied = new HashSet<>();

  HistoryBuilder() {
    this(Map.of("seed", "1", "resources", "1"));
  }

  /** A history whose META line holds {@code meta}. */
  HistoryBuilder(Map<String, String> meta) {
    events.add(Event.of(Type.META, 0).meta(meta).build());
  }

  static long ms(long m) {
    return m * 1_000_000L;
  }

  /** The receipt of {@code operation} applied under {@code epoch} (one per operation). */
  ReceiptView receipt(String operation, long epoch) {
    return receipts.computeIfAbsent(
        operation + "@" + epoch,
        k -> new ReceiptView(epoch, "2026-01-01T00:00:0" + receipts.size() + "Z", Map.of()));
  }

  private long index(String process) {
    return nextIndex.merge(process, 1L, Long::sum) - 1;
  }

  private Event.Builder invoke(String p, long index, String f, String r, long at) {
    return Event.of(Type.INVOKE, ms(at)).process(p).index(index).f(f).resource(r);
  }

  private Event.Builder done(Type type, String p, long index, String f, String r, long at) {
    return Event.of(type, ms(at)).process(p).index(index).f(f).resource(r);
  }

  HistoryBuilder acquire(String p, String r, long epoch, long from, long to) {
    long i = index(p);
    events.add(invoke(p, i, Event.ACQUIRE, r, from).build());
    events.add(
        done(Type.OK, p, i, Event.ACQUIRE, r, to).outcome(Event.ACQUIRED).epoch(epoch).build());
    return this;
  }

  HistoryBuilder release(String p, String r, long epoch, long from, long to) {
    long i = index(p);
    events.add(invoke(p, i, Event.RELEASE, r, from).epoch(epoch).build());
    events.add(done(Type.OK, p, i, Event.RELEASE, r, to).build());
    return this;
  }

  HistoryBuilder register(String p, String r, long epoch, long from, long to, String outcome) {
    long i = index(p);
    events.add(invoke(p, i, Event.REGISTER, r, from).epoch(epoch).build());
    events.add(done(Type.OK, p, i, Event.REGISTER, r, to).epoch(epoch).outcome(outcome).build());
    return this;
  }

  /** A write completing with {@code outcome}; Applied and AlreadyApplied carry the op's receipt. */
  HistoryBuilder write(
      String p, String r, long epoch, String op, long from, long to, String outcome) {
    return write(p, r, epoch, op, from, to, outcome, receipt(op, epoch));
  }

  HistoryBuilder write(
      String p,
      String r,
      long epoch,
      String op,
      long from,
      long to,
      String outcome,
      ReceiptView receipt) {
    long i = index(p);
    written.computeIfAbsent(r, k -> new java.util.LinkedHashSet<>()).add(op);
    events.add(invoke(p, i, Event.WRITE, r, from).epoch(epoch).operation(op).value(op).build());
    Event.Builder end =
        done(Type.OK, p, i, Event.WRITE, r, to).epoch(epoch).operation(op).outcome(outcome);
    if (Event.APPLIED.equals(outcome) || Event.ALREADY_APPLIED.equals(outcome)) {
      end.receipt(receipt);
      applied.add(r + "/" + op);
    }
    events.add(end.build());
    return this;
  }

  /** A write answered RejectedStale with the {@code current} epoch the destination reported. */
  HistoryBuilder writeRejected(
      String p, String r, long epoch, String op, long from, long to, long current) {
    long i = index(p);
    written.computeIfAbsent(r, k -> new java.util.LinkedHashSet<>()).add(op);
    events.add(invoke(p, i, Event.WRITE, r, from).epoch(epoch).operation(op).value(op).build());
    events.add(
        done(Type.OK, p, i, Event.WRITE, r, to)
            .epoch(epoch)
            .operation(op)
            .outcome(Event.REJECTED_STALE)
            .current(current)
            .build());
    return this;
  }

  /** A write answered FAIL (certainly changed nothing). */
  HistoryBuilder writeFailed(String p, String r, long epoch, String op, long from, long to) {
    long i = index(p);
    written.computeIfAbsent(r, k -> new java.util.LinkedHashSet<>()).add(op);
    events.add(invoke(p, i, Event.WRITE, r, from).epoch(epoch).operation(op).value(op).build());
    events.add(
        done(Type.FAIL, p, i, Event.WRITE, r, to)
            .epoch(epoch)
            .operation(op)
            .outcome(Event.ERROR)
            .error("StoreException: nothing changed")
            .build());
    return this;
  }

  /** A write whose outcome is unknown: an info line at {@code infoAt}, or none when null. */
  HistoryBuilder writeUnknown(String p, String r, long epoch, String op, long from, Long infoAt) {
    long i = index(p);
    written.computeIfAbsent(r, k -> new java.util.LinkedHashSet<>()).add(op);
    events.add(invoke(p, i, Event.WRITE, r, from).epoch(epoch).operation(op).value(op).build());
    if (infoAt != null) {
      events.add(
          done(Type.INFO, p, i, Event.WRITE, r, infoAt)
              .operation(op)
              .outcome(Event.UNKNOWN)
              .error("StoreException: timed out")
              .build());
    }
    return this;
  }

  /** A read finding {@code value}, or NotFound when null. */
  HistoryBuilder read(String p, String r, long from, long to, String value) {
    long i = index(p);
    events.add(invoke(p, i, Event.READ, r, from).build());
    Event.Builder end = done(Type.OK, p, i, Event.READ, r, to);
    if (value == null) {
      end.outcome(Event.NOT_FOUND);
    } else {
      end.outcome(Event.FOUND).value(value);
    }
    events.add(end.build());
    return this;
  }

  HistoryBuilder fault(String kind, String target, long at) {
    events.add(Event.of(Type.FAULT, ms(at)).fault(kind).target(target).build());
    return this;
  }

  /**
   * The final line: every operation written to {@code r} is looked up: the receipt of its
   * acknowledged write, or of the unknown writes named in {@code landed} ("op@epoch"), else null
   * (never applied).
   */
  HistoryBuilder fin(String r, long epoch, String value, String... landed) {
    Map<String, ReceiptView> lookups = new LinkedHashMap<>();
    for (String op : written.getOrDefault(r, Set.of())) {
      lookups.put(op, null);
      receipts.forEach(
          (k, v) -> {
            if (applied.contains(r + "/" + op) && k.startsWith(op + "@")) {
              lookups.put(op, v);
            }
          });
    }
    for (String l : landed) {
      String[] parts = l.split("@");
      lookups.put(parts[0], receipt(parts[0], Long.parseLong(parts[1])));
    }
    return fin(r, epoch, value, lookups);
  }

  HistoryBuilder fin(String r, long epoch, String value, Map<String, ReceiptView> lookups) {
    long last = events.stream().mapToLong(Event::t).max().orElse(0);
    Event.Builder b = Event.of(Type.FINAL, last + 1).resource(r).epoch(epoch).lookups(lookups);
    if (value != null) {
      b.value(value);
    }
    events.add(b.build());
    return this;
  }

  /** A final line without lookups (the destination has none), naming {@code error}. */
  HistoryBuilder finWithoutLookup(String r, long epoch, String value, String error) {
    long last = events.stream().mapToLong(Event::t).max().orElse(0);
    Event.Builder b = Event.of(Type.FINAL, last + 1).resource(r).epoch(epoch).error(error);
    if (value != null) {
      b.value(value);
    }
    events.add(b.build());
    return this;
  }

  List<Event> events() {
    List<Event> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(Event::t));
    return sorted;
  }
}
