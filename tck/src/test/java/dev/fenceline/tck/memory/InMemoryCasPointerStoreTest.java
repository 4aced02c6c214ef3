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
package dev.fenceline.tck.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The pointer-store suite on the compare-and-swap reference store: nobody waits, all linearize. */
class InMemoryCasPointerStoreTest extends InMemoryPointerStoreTest {

  private final InMemoryCasPointerStore.Storage storage = new InMemoryCasPointerStore.Storage();

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new InMemoryCasPointerStore(storage, name, steps, clock, keys.orElse(null));
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP;
  }

  /**
   * A retry decided on one snapshot whose swap then loses to a newer registration must be decided
   * again on the newer snapshot: its epoch is now stale. The registration runs inside the retry's
   * step listener, between its read and its swap (the store never locks, so it does not wait).
   */
  @Test
  void aRetryWhoseSwapLosesToANewerRegistrationIsDecidedAgainAndRejected() {
    ResourceId resource = ResourceId.of("cas/retry-race");
    OperationId operation = OperationId.of("report-1");
    Pointer pointer = Pointer.to("blob-1");
    RequestFingerprint fingerprint = RequestFingerprint.of(pointer);
    PointerStore plain = pointerStore("tck", StepListener.NONE, Optional.empty());
    Receipt receipt =
        ((Applied) plain.write(token(resource, 33), operation, pointer, fingerprint)).receipt();
    AtomicInteger checks = new AtomicInteger();
    StepListener registerNewerOnce =
        (step, token, op) -> {
          if (step == FencingStep.AFTER_EPOCH_CHECK && checks.getAndIncrement() == 0) {
            plain.register(token(resource, 35));
          }
        };
    PointerStore racing = pointerStore("tck", registerNewerOnce, Optional.empty());

    assertThat(racing.write(token(resource, 34), operation, pointer, fingerprint))
        .isEqualTo(new RejectedStale(resource, Epoch.of(34), Epoch.of(35)));
    assertThat(plain.currentEpoch(resource)).isEqualTo(Epoch.of(35));
    assertThat(plain.write(token(resource, 35), operation, pointer, fingerprint))
        .isEqualTo(new AlreadyApplied(receipt));
  }

  @Test
  void aRetryReportsItsCommitLikeAFirstWrite() {
    ResourceId resource = ResourceId.of("cas/retry-steps");
    Pointer pointer = Pointer.to("blob-1");
    List<FencingStep> reached = new CopyOnWriteArrayList<>();
    PointerStore recording =
        pointerStore("tck", (step, token, op) -> reached.add(step), Optional.empty());
    recording.write(token(resource, 3), OperationId.of("op"), pointer);
    reached.clear();

    assertThat(recording.write(token(resource, 4), OperationId.of("op"), pointer))
        .isInstanceOf(AlreadyApplied.class);

    assertThat(reached)
        .containsExactly(
            FencingStep.BEFORE_LOCK, FencingStep.AFTER_EPOCH_CHECK, FencingStep.AFTER_COMMIT);
    assertThat(recording.currentEpoch(resource)).isEqualTo(Epoch.of(4));
  }

  private FencingToken token(ResourceId resource, long epoch) {
    return new FencingToken(issuer().id(), resource, Epoch.of(epoch), "worker-" + epoch);
  }
}
