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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Generates the history of a correct run: workers on a simulated clock take leases (which lapse
 * while a worker is paused, so others take over and the paused one becomes a stale writer),
 * register, write and read a fenced destination that is linearizable by construction (every
 * operation takes effect at one instant between its invocation and completion), and sometimes die
 * (no completion) or get an unknown outcome (info line), the effect landing or not at random.
 */
final class SimulatedRun {

  private static final long MS = 1_000_000L;
  private static final long TTL = 2_000 * MS;

  private final Random random;
  private final int resources;
  private final int target;
  private final List<Event> events = new ArrayList<>();
  private final PriorityQueue<long[]> queue =
      new PriorityQueue<>(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
  private final Map<Long, Runnable> tasks = new HashMap<>();
  private long seq;
  private long now = 1_000 * MS;
  private int fencedOps;
  private final Issuer[] issuers;
  private final Destination[] destinations;

  private static final class Issuer {
    String holder;
    long holderEpoch;
    long expires;
    long epochs;
  }

  private static final class Destination {
    long epoch;
    String value;
    final Map<String, ReceiptView> applied = new LinkedHashMap<>();
    final List<String> written = new ArrayList<>();
  }

  private static final class Worker {
    final String base;
    int generation = 1;
    long index;
    String name;

    Worker(String base) {
      this.base = base;
      this.name = base;
    }
  }

  private SimulatedRun(long seed, int resources, int target) {
    this.random = new Random(seed);
    this.resources = resources;
    this.target = target;
    issuers = new Issuer[resources];
    destinations = new Destination[resources];
    for (int i = 0; i < resources; i++) {
      issuers[i] = new Issuer();
      destinations[i] = new Destination();
    }
  }

  /**
   * {@return the history of a correct run with about {@code fencedOps} register, write and read
   * operations (all resources together)}
   */
  static List<Event> generate(long seed, int workers, int resources, int fencedOps) {
    SimulatedRun run = new SimulatedRun(seed, resources, fencedOps);
    run.events.add(
        Event.of(Type.META, run.now)
            .meta(
                Map.of(
                    "seed",
                    Long.toString(seed),
                    "workers",
                    Integer.toString(workers),
                    "resources",
                    Integer.toString(resources),
                    "destination",
                    "simulated",
                    "capabilities",
                    "RESULT_LOOKUP",
                    "canRead",
                    "true"))
            .build());
    for (int w = 0; w < workers; w++) {
      Worker worker = new Worker("w" + w);
      run.at(run.now + run.between(0, 20) * MS, () -> run.session(worker));
    }
    while (!run.queue.isEmpty()) {
      long[] next = run.queue.poll();
      run.now = next[0];
      run.tasks.remove(next[1]).run();
    }
    for (int r = 0; r < resources; r++) {
      Destination d = run.destinations[r];
      Map<String, ReceiptView> lookups = new LinkedHashMap<>();
      for (String o : d.written) {
        lookups.put(o, d.applied.get(o));
      }
      Event.Builder fin =
          Event.of(Type.FINAL, run.now + MS).resource("r" + r).epoch(d.epoch).lookups(lookups);
      if (d.value != null) {
        fin.value(d.value);
      }
      run.events.add(fin.build());
    }
    run.events.sort(Comparator.comparingLong(Event::t));
    return run.events;
  }

  private long between(long lo, long hi) {
    return lo + (long) (random.nextDouble() * (hi - lo));
  }

  private void at(long t, Runnable task) {
    long id = seq++;
    tasks.put(id, task);
    queue.add(new long[] {t, id});
  }

  private boolean done() {
    return fencedOps >= target;
  }

  /**
   * Runs one operation: the invoke line now, the effect at a random instant, the completion a bit
   * later. A killed worker writes no completion (and restarts under a new name); an unknown outcome
   * writes an info line; either way the effect lands or not at random.
   */
  private void op(
      Worker w,
      Event.Builder invoke,
      String f,
      String resource,
      LongFunction<Event.Builder> effect,
      Consumer<Event> then) {
    long index = w.index++;
    String process = w.name;
    events.add(invoke.process(process).index(index).f(f).resource(resource).build());
    long effectAt = now + between(1, 4) * MS + random.nextInt(1000);
    long doneAt = effectAt + between(1, 4) * MS + random.nextInt(1000);
    boolean fenced = !f.equals(Event.ACQUIRE) && !f.equals(Event.RELEASE);
    if (fenced) {
      fencedOps++;
    }
    double fault = random.nextDouble();
    if (fenced && fault < 0.003) { // killed: no completion
      at(
          effectAt,
          () -> {
            if (random.nextBoolean()) {
              effect.apply(now);
            }
            events.add(Event.of(Type.FAULT, now).fault("kill").target(process).build());
            w.generation++;
            w.name = w.base + "." + w.generation;
            w.index = 0;
            long restart = now + between(50, 300) * MS;
            at(
                restart,
                () -> {
                  events.add(Event.of(Type.FAULT, now).fault("restart").target(w.name).build());
                  session(w);
                });
          });
      return;
    }
    if (fenced && fault < 0.013 && !f.equals(Event.READ)) { // unknown outcome
      at(
          effectAt,
          () -> {
            if (random.nextBoolean()) {
              effect.apply(now);
            }
            at(
                doneAt,
                () -> {
                  Event info =
                      Event.of(Type.INFO, now)
                          .process(process)
                          .index(index)
                          .f(f)
                          .resource(resource)
                          .outcome(Event.UNKNOWN)
                          .error("StoreException: connection reset")
                          .build();
                  events.add(info);
                  then.accept(info);
                });
          });
      return;
    }
    if (f.equals(Event.WRITE) && fault < 0.018) { // failed: certainly no effect
      at(
          doneAt,
          () -> {
            Event fail =
                Event.of(Type.FAIL, now)
                    .process(process)
                    .index(index)
                    .f(f)
                    .resource(resource)
                    .outcome(Event.ERROR)
                    .error("StoreException: refused")
                    .build();
            events.add(fail);
            then.accept(fail);
          });
      return;
    }
    at(
        effectAt,
        () -> {
          Event.Builder result = effect.apply(now);
          at(
              doneAt,
              () -> {
                Event ok = result.build();
                Event line =
                    new Event(
                        Type.OK,
                        now,
                        process,
                        index,
                        f,
                        resource,
                        ok.epoch(),
                        ok.operation(),
                        ok.value(),
                        ok.outcome(),
                        ok.receipt(),
                        ok.current(),
                        null,
                        null,
                        null,
                        null,
                        null);
                events.add(line);
                then.accept(line);
              });
        });
  }

  private Event.Builder result() {
    return Event.of(Type.OK, now);
  }

  private void session(Worker w) {
    if (done()) {
      return;
    }
    int r = random.nextInt(resources);
    String resource = "r" + r;
    Issuer issuer = issuers[r];
    op(
        w,
        Event.of(Type.INVOKE, now),
        Event.ACQUIRE,
        resource,
        t -> {
          if (issuer.holder == null || issuer.expires <= t) {
            issuer.epochs++;
            issuer.holder = w.name;
            issuer.holderEpoch = issuer.epochs;
            issuer.expires = t + TTL;
            return result().outcome(Event.ACQUIRED).epoch(issuer.epochs);
          }
          return result().outcome(Event.BUSY);
        },
        e -> {
          if (Event.ACQUIRED.equals(e.outcome())) {
            register(w, r, e.epoch());
          } else {
            at(now + between(100, 400) * MS, () -> session(w));
          }
        });
  }

  private void register(Worker w, int r, long epoch) {
    Destination d = destinations[r];
    op(
        w,
        Event.of(Type.INVOKE, now).epoch(epoch),
        Event.REGISTER,
        "r" + r,
        t -> {
          if (epoch >= d.epoch) {
            long before = d.epoch;
            d.epoch = epoch;
            return result().outcome(Event.REGISTERED).epoch(epoch).current(before);
          }
          return result().outcome(Event.REJECTED_STALE).epoch(epoch).current(d.epoch);
        },
        e -> {
          if (Event.REJECTED_STALE.equals(e.outcome())) {
            release(w, r, epoch);
          } else {
            write(w, r, epoch, 1 + random.nextInt(3), 0, null);
          }
        });
  }

  private void write(Worker w, int r, long epoch, int writes, int k, String retry) {
    if (k >= writes && retry == null) {
      if (random.nextDouble() < 0.2) {
        read(w, r, epoch);
      } else {
        release(w, r, epoch);
      }
      return;
    }
    Destination d = destinations[r];
    String op;
    if (retry != null) {
      op = retry;
    } else if (random.nextDouble() < 0.1 && !d.written.isEmpty()) {
      op = d.written.get(Math.max(0, d.written.size() - 1 - random.nextInt(5)));
    } else {
      op = "job-" + epoch / 2 + "-" + random.nextInt(3);
    }
    if (!d.written.contains(op)) {
      d.written.add(op);
    }
    long compute = between(0, 30) * MS;
    if (random.nextDouble() < 0.01) { // paused past the lease: a stale writer
      long pause = (long) (TTL * (1.5 + 1.5 * random.nextDouble()));
      events.add(Event.of(Type.FAULT, now).fault("pause").target(w.name).build());
      long resume = now + pause;
      at(
          resume,
          () -> events.add(Event.of(Type.FAULT, now).fault("resume").target(w.name).build()));
      compute += pause;
    }
    at(
        now + compute,
        () ->
            op(
                w,
                Event.of(Type.INVOKE, now).epoch(epoch).operation(op).value(op),
                Event.WRITE,
                "r" + r,
                t -> {
                  if (epoch < d.epoch) {
                    return result()
                        .outcome(Event.REJECTED_STALE)
                        .epoch(epoch)
                        .operation(op)
                        .current(d.epoch);
                  }
                  d.epoch = epoch;
                  ReceiptView existing = d.applied.get(op);
                  if (existing != null) {
                    return result()
                        .outcome(Event.ALREADY_APPLIED)
                        .epoch(epoch)
                        .operation(op)
                        .receipt(existing);
                  }
                  ReceiptView receipt =
                      new ReceiptView(
                          epoch, Instant.ofEpochSecond(0, t).toString(), Map.of("store", "sim"));
                  d.applied.put(op, receipt);
                  d.value = op;
                  return result()
                      .outcome(Event.APPLIED)
                      .epoch(epoch)
                      .operation(op)
                      .receipt(receipt);
                },
                e -> {
                  if (e.type() == Type.INFO || random.nextDouble() < 0.1) {
                    write(w, r, epoch, writes, retry == null ? k + 1 : k, op);
                  } else if (Event.REJECTED_STALE.equals(e.outcome())) {
                    release(w, r, epoch);
                  } else {
                    write(w, r, epoch, writes, retry == null ? k + 1 : k, null);
                  }
                }));
  }

  private void read(Worker w, int r, long epoch) {
    Destination d = destinations[r];
    op(
        w,
        Event.of(Type.INVOKE, now),
        Event.READ,
        "r" + r,
        t ->
            d.value == null
                ? result().outcome(Event.NOT_FOUND)
                : result().outcome(Event.FOUND).value(d.value),
        e -> release(w, r, epoch));
  }

  private void release(Worker w, int r, long epoch) {
    if (random.nextDouble() < 0.3) { // let the lease lapse
      at(now + between(1, 20) * MS, () -> session(w));
      return;
    }
    Issuer issuer = issuers[r];
    op(
        w,
        Event.of(Type.INVOKE, now).epoch(epoch),
        Event.RELEASE,
        "r" + r,
        t -> {
          if (w.name.equals(issuer.holder) && issuer.holderEpoch == epoch) {
            issuer.holder = null;
          }
          return result();
        },
        e -> at(now + between(1, 20) * MS, () -> session(w)));
  }
}
