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
package dev.fenceline.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.CapturedWarnings;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Released and lost leases leave no cancelled tasks queued on the schedulers (issue 10): with the
 * default ttl nothing comes due during a test, so the queues hold exactly the live leases' tasks.
 */
class ScheduledTaskCleanupTest {

  private static final int LEASES = 10_000;

  private final MutableClock issuerClock = new MutableClock(Instant.EPOCH);
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);

  private List<HeldLease> acquire(Fenceline fenceline, String prefix, int count) {
    List<HeldLease> leases = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      leases.add(fenceline.tryAcquire(ResourceId.of(prefix + "-" + i)).orElseThrow());
    }
    return leases;
  }

  @Test
  void closedLeasesLeaveNoTasksOnTheOwnSchedulers() {
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build()) {
      List<HeldLease> leases = acquire(fenceline, "job", LEASES);
      assertThat(fenceline.queuedRenewalTasks()).isEqualTo(LEASES);
      assertThat(fenceline.queuedDeadlineWatchTasks()).isEqualTo(LEASES);

      leases.subList(0, LEASES / 2).forEach(HeldLease::close);
      assertThat(fenceline.queuedRenewalTasks()).isEqualTo(LEASES / 2);
      assertThat(fenceline.queuedDeadlineWatchTasks()).isEqualTo(LEASES / 2);

      leases.subList(LEASES / 2, LEASES).forEach(HeldLease::close);
      assertThat(fenceline.queuedRenewalTasks()).isZero();
      assertThat(fenceline.queuedDeadlineWatchTasks()).isZero();
    }
  }

  @Test
  void efficiencyLeasesLeaveNoTasksEither() {
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build()) {
      List<EfficiencyLease> leases = new ArrayList<>();
      for (int i = 0; i < LEASES; i++) {
        leases.add(fenceline.tryAcquireForEfficiency(ResourceId.of("scan-" + i)).orElseThrow());
      }
      leases.forEach(EfficiencyLease::close);
      assertThat(fenceline.queuedRenewalTasks()).isZero();
      assertThat(fenceline.queuedDeadlineWatchTasks()).isZero();
    }
  }

  @Test
  void lostLeasesLeaveNoTasks() {
    Logger lossLog = Logger.getLogger(HeldLease.class.getName());
    Level level = lossLog.getLevel();
    lossLog.setLevel(Level.SEVERE); // a thousand expected loss warnings say nothing here
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build();
        Fenceline newer = Fenceline.builder().issuer(issuer).holder("worker-b").build()) {
      int count = 1_000;
      List<HeldLease> leases = acquire(fenceline, "job", count);
      issuerClock.advance(Duration.ofMinutes(1)); // expired at the issuer, not yet locally
      List<HeldLease> takeovers = acquire(newer, "job", count);

      for (HeldLease lease : leases) {
        assertThat(lease.renewNow()).isFalse(); // refused: lost, without being closed
      }
      assertThat(leases)
          .allSatisfy(lease -> assertThat(lease.state()).isSameAs(HeldLease.State.LOST));
      assertThat(fenceline.queuedRenewalTasks()).isZero();
      assertThat(fenceline.queuedDeadlineWatchTasks()).isZero();
      takeovers.forEach(HeldLease::close);
    } finally {
      lossLog.setLevel(level);
    }
  }

  @Test
  void aSuppliedPoolKeepsItsPolicyAndLosesOurCancelledTasks() {
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
    try (Fenceline fenceline =
        Fenceline.builder().issuer(issuer).holder("worker-a").renewals(pool).build()) {
      List<HeldLease> leases = acquire(fenceline, "job", LEASES);
      assertThat(pool.getQueue()).hasSize(LEASES);

      leases.forEach(HeldLease::close);
      assertThat(pool.getQueue()).isEmpty();
      assertThat(pool.getRemoveOnCancelPolicy()).isFalse();
      assertThat(fenceline.queuedDeadlineWatchTasks()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void warnsOnceAboutASchedulerThatKeepsCancelledTasks() {
    CapturedWarnings captured = CapturedWarnings.of(Fenceline.class);
    List<LogRecord> warnings = captured.records();
    ScheduledExecutorService wrapped = Executors.newSingleThreadScheduledExecutor();
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
    try {
      Fenceline.builder().issuer(issuer).holder("worker-a").build().close();
      Fenceline.builder().issuer(issuer).holder("worker-a").renewals(pool).build().close();
      Fenceline.builder()
          .issuer(issuer)
          .holder("worker-a")
          .renewEvery(Duration.ZERO)
          .renewals(wrapped)
          .build()
          .close();
      assertThat(warnings).isEmpty();

      Fenceline.builder().issuer(issuer).holder("worker-a").renewals(wrapped).build().close();
      assertThat(warnings)
          .singleElement()
          .extracting(LogRecord::getMessage)
          .asString()
          .contains(wrapped.getClass().getName())
          .contains("up to PT9S")
          .contains("new ScheduledThreadPoolExecutor(1)");
    } finally {
      captured.close();
      wrapped.shutdownNow();
      pool.shutdownNow();
    }
  }
}
