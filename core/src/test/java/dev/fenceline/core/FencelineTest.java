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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FencelineTest {

  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), new MutableClock(Instant.EPOCH));

  /** A destination that checks nothing: a plain overwrite. */
  private static class PlainOverwrite implements Destination<String> {
    final List<String> writes = new ArrayList<>();

    @Override
    public String name() {
      return "plain";
    }

    @Override
    public Set<Capability> capabilities() {
      return Set.of();
    }

    @Override
    public RegisterOutcome register(FencingToken token) {
      return new Registered(token.resource(), token.epoch(), Epoch.NONE);
    }

    @Override
    public WriteOutcome write(FencingToken token, OperationId operation, String change) {
      writes.add(change);
      return new Applied(
          new Receipt(name(), token.resource(), operation, token.epoch(), Instant.EPOCH, Map.of()));
    }

    @Override
    public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
      return Optional.empty();
    }

    @Override
    public Epoch currentEpoch(ResourceId resource) {
      return Epoch.NONE;
    }
  }

  @Test
  void refusesUnguardedDestinationsUnlessAllowed() {
    PlainOverwrite plain = new PlainOverwrite();
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("report")).orElseThrow()) {
      assertThatThrownBy(() -> fenceline.publish(lease, plain, OperationId.of("op"), "x"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("UNGUARDED")
          .hasMessageContaining("allowUnguarded(true)");
      assertThat(plain.writes).isEmpty();
    }
    try (Fenceline fenceline =
            Fenceline.builder().issuer(issuer).holder("worker-b").allowUnguarded(true).build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("report-2")).orElseThrow()) {
      assertThat(fenceline.publish(lease, plain, OperationId.of("op"), "x"))
          .isInstanceOf(Applied.class);
      assertThat(plain.writes).containsExactly("x");
    }
  }

  /** A destination that deduplicates by operation ID but cannot compare epochs. */
  private static final class IdempotentOnly extends PlainOverwrite {
    @Override
    public Set<Capability> capabilities() {
      return Set.of(Capability.IDEMPOTENCY_KEY);
    }
  }

  @Test
  void refusesIdempotentOnlyDestinationsUnlessAllowed() {
    IdempotentOnly api = new IdempotentOnly();
    assertThat(api.guarantee()).isEqualTo(Guarantee.IDEMPOTENT_ONLY);
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("payment")).orElseThrow()) {
      assertThatThrownBy(() -> fenceline.publish(lease, api, OperationId.of("op"), "x"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("IDEMPOTENT_ONLY")
          .hasMessageContaining("allowIdempotentOnly(true)");
      assertThat(api.writes).isEmpty();
    }
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-b")
                .allowIdempotentOnly(true)
                .build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("payment-2")).orElseThrow()) {
      assertThat(fenceline.publish(lease, api, OperationId.of("op"), "x"))
          .isInstanceOf(Applied.class);
      assertThat(api.writes).containsExactly("x");
      assertThatThrownBy(
              () -> fenceline.publish(lease, new PlainOverwrite(), OperationId.of("op"), "x"))
          .as("allowing IDEMPOTENT_ONLY does not allow UNGUARDED")
          .hasMessageContaining("UNGUARDED");
    }
  }

  /** A destination that records fenced intents before calling a system with idempotency keys. */
  private static final class FencedAtIntent extends PlainOverwrite {
    @Override
    public Set<Capability> capabilities() {
      return Set.of(Capability.FENCED_INTENT, Capability.IDEMPOTENCY_KEY);
    }
  }

  @Test
  void refusesFencedAtIntentDestinationsUnlessAllowedOrAWeakerGuaranteeIs() {
    FencedAtIntent api = new FencedAtIntent();
    assertThat(api.guarantee()).isEqualTo(Guarantee.FENCED_AT_INTENT);
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("payment")).orElseThrow()) {
      assertThatThrownBy(() -> fenceline.publish(lease, api, OperationId.of("op"), "x"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("FENCED_AT_INTENT")
          .hasMessageContaining("allowFencedAtIntent(true)");
      assertThat(api.writes).isEmpty();
    }
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-b")
                .allowFencedAtIntent(true)
                .build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("payment-2")).orElseThrow()) {
      assertThat(fenceline.publish(lease, api, OperationId.of("op"), "x"))
          .isInstanceOf(Applied.class);
      assertThatThrownBy(
              () -> fenceline.publish(lease, new IdempotentOnly(), OperationId.of("op"), "x"))
          .as("allowing FENCED_AT_INTENT does not allow IDEMPOTENT_ONLY")
          .hasMessageContaining("IDEMPOTENT_ONLY");
    }
    try (Fenceline fenceline =
            Fenceline.builder()
                .issuer(issuer)
                .holder("worker-c")
                .allowIdempotentOnly(true)
                .build();
        HeldLease lease = fenceline.tryAcquire(ResourceId.of("payment-3")).orElseThrow()) {
      assertThat(fenceline.publish(lease, new FencedAtIntent(), OperationId.of("op"), "x"))
          .as("allowing a weaker guarantee allows this stronger one")
          .isInstanceOf(Applied.class);
    }
  }

  @Test
  void countsLostLeasesTakeoversAndStaleRejections() {
    MutableClock issuerClock = new MutableClock(Instant.EPOCH);
    InMemoryLeaseIssuer shared =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), issuerClock);
    dev.fenceline.tck.memory.InMemoryPointerStore reports =
        new dev.fenceline.tck.memory.InMemoryPointerStore(
            new dev.fenceline.tck.memory.InMemoryPointerStore.Storage(),
            "reports",
            dev.fenceline.spi.StepListener.NONE,
            java.time.Clock.systemUTC());
    ResourceId resource = ResourceId.of("nightly-report");
    try (Fenceline a =
            Fenceline.builder()
                .issuer(shared)
                .holder("worker-a")
                .renewEvery(Duration.ZERO)
                .build();
        Fenceline b = Fenceline.builder().issuer(shared).holder("worker-b").build();
        HeldLease lease = a.tryAcquire(resource).orElseThrow()) {
      issuerClock.advance(Duration.ofMinutes(1)); // A's lease expires by the issuer's clock
      try (HeldLease newer = b.tryAcquire(resource).orElseThrow()) {
        b.register(newer, reports);

        // A does not know yet: its writes reach the destination, which rejects them.
        assertThat(
                a.publish(lease, reports, OperationId.of("op"), dev.fenceline.spi.Pointer.to("x")))
            .isInstanceOf(dev.fenceline.spi.RejectedStale.class);
        assertThat(a.register(lease, reports)).isInstanceOf(dev.fenceline.spi.RejectedStale.class);
        assertThat(lease.renewNow()).isFalse(); // A learns it was taken over
      }
      assertThat(a.metrics().counts())
          .extracting("lostLeases", "takeovers", "staleRejections")
          .containsExactly(1L, 1L, 2L);
      assertThat(b.metrics().counts())
          .extracting("lostLeases", "takeovers", "staleRejections")
          .containsExactly(0L, 0L, 0L);
    }
  }

  @Test
  void builderNamesWhatIsMissingOrWrong() {
    assertThatThrownBy(() -> Fenceline.builder().holder("a").build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("no lease issuer");
    assertThatThrownBy(() -> Fenceline.builder().issuer(issuer).build())
        .hasMessageContaining("no holder name");
    assertThatThrownBy(
            () ->
                Fenceline.builder()
                    .issuer(issuer)
                    .holder("a")
                    .leaseTtl(Duration.ofSeconds(3))
                    .renewEvery(Duration.ofSeconds(3))
                    .build())
        .hasMessageContaining("renewEvery PT3S is not shorter than lease ttl PT3S");
    assertThatThrownBy(() -> Fenceline.builder().leaseTtl(Duration.ZERO))
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> Fenceline.builder().holder("")).hasMessageContaining("holder name");
  }

  @Test
  void aClosedFencelineAcquiresNothing() {
    Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-a").build();
    fenceline.close();

    assertThatThrownBy(() -> fenceline.tryAcquire(ResourceId.of("report")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThat(issuer.status(ResourceId.of("report")).held()).isFalse();
  }

  @Test
  void aLeaseThatCannotBeScheduledForRenewalIsReleased() {
    java.util.concurrent.ScheduledExecutorService stopped =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
    stopped.shutdown();
    try (Fenceline fenceline =
        Fenceline.builder().issuer(issuer).holder("worker-a").renewals(stopped).build()) {
      assertThatThrownBy(() -> fenceline.tryAcquire(ResourceId.of("report")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("the lease was released");
    }
    assertThat(issuer.status(ResourceId.of("report")).held()).isFalse();
  }
}
