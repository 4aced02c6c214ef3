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

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** R10: a lease that only avoids duplicate work is kept apart from fenced publishing. */
class EfficiencyLeaseTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");
  private static final Duration TTL = Duration.ofSeconds(10);

  private final MutableClock issuerClock = new MutableClock(Instant.parse("2026-10-27T01:00:00Z"));
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);

  private Fenceline fenceline(String holder) {
    return Fenceline.builder()
        .issuer(issuer)
        .holder(holder)
        .leaseTtl(TTL)
        .renewEvery(Duration.ZERO)
        .build();
  }

  @Test
  void anEfficiencyLeaseOffersNothingToPublishWith() {
    List<Class<?>> fencing = List.of(FencingToken.class, Lease.class, HeldLease.class);
    for (Method method : EfficiencyLease.class.getMethods()) {
      assertThat(fencing).as("return type of %s", method).doesNotContain(method.getReturnType());
    }
    for (RecordComponent component : LeaseLoss.class.getRecordComponents()) {
      assertThat(fencing).as("component %s", component).doesNotContain(component.getType());
    }
    assertThat(EfficiencyLease.class.getConstructors()).isEmpty();
    assertThat(
            Arrays.stream(Fenceline.class.getMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()))
                .flatMap(method -> Arrays.stream(method.getParameterTypes())))
        .doesNotContain(EfficiencyLease.class);
  }

  @Test
  void anEfficiencyLeaseKeepsASecondWorkerFromDuplicatingWork() {
    try (Fenceline a = fenceline("worker-a");
        Fenceline b = fenceline("worker-b")) {
      EfficiencyLease lease = a.tryAcquireForEfficiency(REPORT).orElseThrow();
      assertThat(lease.resource()).isEqualTo(REPORT);
      assertThat(lease.isLocallyValid()).isTrue();
      assertThat(lease.remaining()).isPositive();
      assertThat(lease.renewNow()).isTrue();

      assertThat(b.tryAcquireForEfficiency(REPORT)).isEmpty();
      assertThat(b.tryAcquire(REPORT)).isEmpty();

      lease.close();

      assertThat(lease.state()).isEqualTo(HeldLease.State.RELEASED);
      assertThat(b.tryAcquireForEfficiency(REPORT)).isPresent();
    }
  }

  @Test
  void anEfficiencyLeaseReportsItsLoss() {
    List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
    try (Fenceline a = fenceline("worker-a");
        EfficiencyLease lease = a.tryAcquireForEfficiency(REPORT).orElseThrow()) {
      lease.onLost(losses::add);
      issuerClock.advance(TTL.plusMillis(1));
      issuer.tryAcquire(REPORT, "worker-b", TTL).orElseThrow();

      assertThat(lease.renewNow()).isFalse();

      assertThat(losses).hasSize(1);
      assertThat(lease.loss()).contains(losses.get(0));
      assertThat(losses.get(0).reason()).isEqualTo(LeaseLoss.Reason.SUPERSEDED);
      assertThat(lease.toString()).doesNotContain("worker-a");
    }
  }
}
