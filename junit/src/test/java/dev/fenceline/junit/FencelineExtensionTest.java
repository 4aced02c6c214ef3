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
package dev.fenceline.junit;

import static dev.fenceline.junit.FencelineAssertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.MonotonicClock;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Parameters as {@link FencelineTest} injects them into a constructor, a {@code @BeforeEach} method
 * and test methods: all parts of one lab per test.
 */
@FencelineTest
class FencelineExtensionTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  private final FencelineLab constructorLab;
  private final Fenceline constructorWorker;
  private FencelineLab beforeEachLab;

  FencelineExtensionTest(FencelineLab lab, @Holder("worker-a") Fenceline workerA) {
    this.constructorLab = lab;
    this.constructorWorker = workerA;
  }

  @BeforeEach
  void setUp(FencelineLab lab) {
    this.beforeEachLab = lab;
  }

  @Test
  void theConstructorTheSetUpAndTheTestGetTheSameLab(
      FencelineLab lab, @Holder("worker-a") Fenceline workerA) {
    assertThat(constructorLab).isSameAs(lab);
    assertThat(beforeEachLab).isSameAs(lab);
    assertThat(workerA).isSameAs(constructorWorker).isSameAs(lab.worker("worker-a"));
  }

  @Test
  void everyInjectedTypeIsThePartOfTheLab(
      FencelineLab lab,
      LeaseIssuer issuer,
      InMemoryLeaseIssuer inMemoryIssuer,
      MutableClock clock,
      MonotonicClock monotonicClock,
      PausePoints pausePoints,
      @DestinationName("reports") InMemoryDestination<String> reports) {
    assertThat(issuer).isSameAs(lab.issuer());
    assertThat(inMemoryIssuer).isSameAs(lab.issuer());
    assertThat(clock).isSameAs(lab.clock());
    assertThat(monotonicClock).isSameAs(lab.monotonicClock());
    assertThat(pausePoints).isSameAs(lab.pausePoints());
    assertThat(reports).isSameAs(lab.destination("reports"));
    assertThat(reports.name()).isEqualTo("reports");
  }

  @Test
  void unannotatedWorkersAndDestinationsGetTheDefaultNames(
      FencelineLab lab, Fenceline worker, InMemoryDestination<String> destination) {
    HeldLease lease = lab.acquire(worker, REPORT);

    assertThat(lease.token().holder()).isEqualTo(FencelineExtension.DEFAULT_HOLDER);
    assertThat(worker).isSameAs(lab.worker("worker"));
    assertThat(destination.name()).isEqualTo(FencelineExtension.DEFAULT_DESTINATION);
  }

  @Test
  void anInjectedWorkerAcquiresFromTheInjectedIssuerOnTheInjectedClock(
      @Holder("worker-b") Fenceline workerB, LeaseIssuer issuer, MutableClock clock) {
    HeldLease lease = workerB.tryAcquire(REPORT).orElseThrow(AssertionError::new);

    assertThat(issuer.status(REPORT).holder()).contains("worker-b");
    assertThat(lease.lease().expiresAt()).isEqualTo(clock.instant().plus(Duration.ofSeconds(30)));
    clock.advance(Duration.ofSeconds(30));
    assertThat(issuer.status(REPORT).held()).isFalse();
    assertThat(lease.isLocallyValid()).isFalse();
  }
}
