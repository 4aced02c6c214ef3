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
package dev.fenceline.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * The faults of a run, planned before it starts from one {@code java.util.Random(seed)}: kinds,
 * victims, offsets, durations and the seed of each store fault's details. One seed and the same
 * settings give the same schedule.
 *
 * <p>Gaps between faults are uniform in 0.5 to 1.5 times the mean gap. A pause lasts 1.5 to 3 lease
 * ttls; a store fault 0.3 to 2 s. One worker is never hit by two faults at once (a killed worker's
 * slot counts as busy for {@link #RESTART_ALLOWANCE}), at least one worker is always left alone,
 * and store faults do not overlap.
 *
 * <p>About half of the kills (chosen by a second Random derived from the seed, so the kinds,
 * victims and offsets are those of a plan without the choice) land during a write: {@link
 * Fault#inWrite()}, with a delay of 0 to {@link #MAX_IN_WRITE_DELAY_MILLIS} ms after the worker
 * says it is about to publish. A pause always asks the victim to stop right before its next write
 * (see {@link ChaosRun}).
 */
final class FaultSchedule {

  /** A killed worker's slot is left alone this long, while its successor starts. */
  static final Duration RESTART_ALLOWANCE = Duration.ofSeconds(3);

  /** The longest delay between a worker's {@code in-write} line and its SIGKILL. */
  static final int MAX_IN_WRITE_DELAY_MILLIS = 30;

  /** Kind of a worker pause (SIGSTOP, then SIGCONT). */
  static final String PAUSE = "pause";

  /** Kind of a worker kill (SIGKILL, then a new process). */
  static final String KILL = "kill";

  /** Kind of a store fault ({@link StoreFaults}). */
  static final String STORE = "store";

  /**
   * One planned fault.
   *
   * @param offsetMillis when, from the start of the run
   * @param kind {@link #PAUSE}, {@link #KILL} or {@link #STORE}
   * @param slot the worker slot hit (-1 for a store fault)
   * @param durationMillis how long until resume or heal (0 for a kill)
   * @param storeKind the store fault's kind ({@link StoreFaults#kinds()}), null otherwise
   * @param detailSeed the seed of the Random handed to {@link StoreFaults#inject}
   * @param inWrite for a kill: true if it should land during a write (SIGKILL after the worker's
   *     {@code in-write} line), false for a kill at a random moment
   * @param inWriteDelayMillis for a kill in a write: how long after the {@code in-write} line (0 to
   *     {@link #MAX_IN_WRITE_DELAY_MILLIS}), else 0
   */
  record Fault(
      long offsetMillis,
      String kind,
      int slot,
      long durationMillis,
      String storeKind,
      long detailSeed,
      boolean inWrite,
      long inWriteDelayMillis) {}

  private FaultSchedule() {}

  /**
   * Plans the faults of a run.
   *
   * @param seed the run's seed
   * @param duration the run's length; no fault starts after it
   * @param meanGap the mean gap between faults
   * @param kinds the fault kinds to use (a subset of pause, kill, store)
   * @param workers the number of workers
   * @param leaseTtl the workers' lease ttl
   * @param storeKinds the store fault kinds, when {@code kinds} has store
   * @return the faults, by offset
   */
  static List<Fault> plan(
      long seed,
      Duration duration,
      Duration meanGap,
      Collection<String> kinds,
      int workers,
      Duration leaseTtl,
      List<String> storeKinds) {
    List<String> use = new ArrayList<>(new TreeSet<>(kinds));
    if (storeKinds.isEmpty()) {
      use.remove(STORE);
    }
    List<Fault> faults = new ArrayList<>();
    if (use.isEmpty() || workers < 1) {
      return faults;
    }
    Random random = new Random(seed);
    // A second stream for the kills' in-write choice: the first one plans exactly what it did
    // before kills could land in writes.
    Random killTiming = new Random(seed ^ 0x6b696c6c2d696e77L);
    long end = duration.toMillis();
    long gap = Math.max(1, meanGap.toMillis());
    long ttl = leaseTtl.toMillis();
    long[] busyUntil = new long[workers];
    long storeBusyUntil = 0;
    int maxHit = Math.max(1, workers - 1);
    long t = gap / 2 + (long) (random.nextDouble() * gap);
    while (t < end) {
      String kind = use.get(random.nextInt(use.size()));
      switch (kind) {
        case PAUSE, KILL -> {
          List<Integer> free = new ArrayList<>();
          int hit = 0;
          for (int slot = 0; slot < workers; slot++) {
            if (busyUntil[slot] > t) {
              hit++;
            } else {
              free.add(slot);
            }
          }
          if (!free.isEmpty() && hit < maxHit) {
            int slot = free.get(random.nextInt(free.size()));
            if (kind.equals(PAUSE)) {
              long length = (long) (ttl * (1.5 + 1.5 * random.nextDouble()));
              faults.add(new Fault(t, PAUSE, slot, length, null, 0, false, 0));
              busyUntil[slot] = t + length + 200;
            } else {
              boolean inWrite = killTiming.nextBoolean();
              long delay = inWrite ? killTiming.nextInt(MAX_IN_WRITE_DELAY_MILLIS + 1) : 0;
              faults.add(new Fault(t, KILL, slot, 0, null, 0, inWrite, delay));
              busyUntil[slot] = t + RESTART_ALLOWANCE.toMillis();
            }
          }
        }
        case STORE -> {
          String storeKind = storeKinds.get(random.nextInt(storeKinds.size()));
          long length = 300 + random.nextInt(1700);
          long detailSeed = random.nextLong();
          if (storeBusyUntil <= t) {
            faults.add(new Fault(t, STORE, -1, length, storeKind, detailSeed, false, 0));
            storeBusyUntil = t + length + 500;
          }
        }
        default ->
            throw new IllegalArgumentException(
                "Cannot plan fault kind " + kind + ": use pause, kill or store");
      }
      t += gap / 2 + (long) (random.nextDouble() * gap);
    }
    return faults;
  }
}
