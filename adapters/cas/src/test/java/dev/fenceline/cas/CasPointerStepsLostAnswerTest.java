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
package dev.fenceline.cas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * A replacement whose answer was lost is decided from the document's recent writes, which keep only
 * the last {@value ControlDocument#RECENT_WRITES} nonces: when more writes followed it than that, a
 * refusal would be a guess, so the outcome is unknown.
 */
class CasPointerStepsLostAnswerTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/daily");

  private final MemoryCasStore store = new MemoryCasStore();
  private final CasPointerSteps<MemoryCasStore.Read> steps =
      new CasPointerSteps<>("reports", store, StepListener.NONE, Clock.systemUTC());

  private static FencingToken token(long epoch) {
    return new FencingToken("issuer-1", RESOURCE, Epoch.of(epoch), "worker-" + epoch);
  }

  /** A newer owner registers epoch 7, then publishes {@code writes - 1} times. */
  private Runnable newerOwnerWrites(int writes) {
    return () -> {
      assertThat(steps.register(token(7), "register 7")).isInstanceOf(Registered.class);
      for (int i = 1; i < writes; i++) {
        Pointer pointer = Pointer.to("blob-" + i);
        assertThat(
                steps.write(
                    token(7),
                    OperationId.of("newer-" + i),
                    pointer,
                    RequestFingerprint.of(pointer),
                    "write newer-" + i))
            .isInstanceOf(Applied.class);
      }
    };
  }

  @Test
  void aLostRegistrationFollowedByNineWritesIsUnknownNotStale() {
    steps.register(token(5), "register 5");
    store.loseAnswerOfNextReplacement(newerOwnerWrites(9));

    StoreException error =
        catchThrowableOfType(StoreException.class, () -> steps.register(token(6), "register 6"));

    assertThat(error).isNotNull();
    assertThat(error.outcomeUnknown()).isTrue();
    assertThat(error)
        .hasMessage(
            "Cannot register 6: an attempt whose answer was lost may have been applied, and 8 or"
                + " more writes followed it before it could be decided (registered epoch now 7;"
                + " read the current epoch, or look the operation up, before acting on it)");
  }

  @Test
  void aLostRegistrationFollowedByFewWritesIsFoundAmongTheRecentWrites() {
    steps.register(token(5), "register 5");
    store.loseAnswerOfNextReplacement(newerOwnerWrites(3));

    assertThat(steps.register(token(6), "register 6"))
        .isEqualTo(new Registered(RESOURCE, Epoch.of(6), Epoch.of(5)));
  }

  @Test
  void aRegistrationNeverSentIsStaleWhileTheWritesSinceItsReadAreAllRecent() {
    steps.register(token(5), "register 5");
    store.failNextReplacementUnsent(newerOwnerWrites(7));

    assertThat(steps.register(token(6), "register 6"))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(6), Epoch.of(7)));
    assertThat(store.control(RESOURCE).epoch()).isEqualTo(Epoch.of(7));
  }

  @Test
  void aRegistrationNeverSentOnANewResourceIsStaleWhileAllItsWritesAreRecent() {
    store.failNextReplacementUnsent(newerOwnerWrites(7));

    assertThat(steps.register(token(6), "register 6"))
        .isEqualTo(new RejectedStale(RESOURCE, Epoch.of(6), Epoch.of(7)));
  }

  @Test
  void aRegistrationNeverSentFollowedByNineWritesIsUnknownToo() {
    steps.register(token(5), "register 5");
    store.failNextReplacementUnsent(newerOwnerWrites(9));

    StoreException error =
        catchThrowableOfType(StoreException.class, () -> steps.register(token(6), "register 6"));

    assertThat(error).isNotNull();
    assertThat(error.outcomeUnknown()).isTrue();
  }

  @Test
  void aLostReplayRegistrationFollowedByNineWritesIsUnknownNotStale() {
    Pointer pointer = Pointer.to("blob-0");
    RequestFingerprint fingerprint = RequestFingerprint.of(pointer);
    OperationId operation = OperationId.of("daily-1");
    steps.register(token(5), "register 5");
    steps.write(token(5), operation, pointer, fingerprint, "write daily-1");
    // The retry comes with epoch 6: it replays the receipt and registers 6.
    store.loseAnswerOfNextReplacement(newerOwnerWrites(9));

    StoreException error =
        catchThrowableOfType(
            StoreException.class,
            () -> steps.write(token(6), operation, pointer, fingerprint, "write daily-1"));

    assertThat(error).isNotNull();
    assertThat(error.outcomeUnknown()).isTrue();
  }

  @Test
  void aLostReplayRegistrationFollowedByFewWritesReplaysTheReceipt() {
    Pointer pointer = Pointer.to("blob-0");
    RequestFingerprint fingerprint = RequestFingerprint.of(pointer);
    OperationId operation = OperationId.of("daily-1");
    steps.register(token(5), "register 5");
    steps.write(token(5), operation, pointer, fingerprint, "write daily-1");
    store.loseAnswerOfNextReplacement(newerOwnerWrites(3));

    assertThat(steps.write(token(6), operation, pointer, fingerprint, "write daily-1"))
        .isInstanceOf(AlreadyApplied.class);
  }

  @Test
  void landedIsDecidedFromTheNewestWriteOfTheVersionReplaced() {
    ControlDocument before = ControlDocument.EMPTY.registered(Epoch.of(1), "i", "w1");
    ControlDocument ours = before.registered(Epoch.of(2), "i", "ours");
    ControlDocument other = before.registered(Epoch.of(2), "i", "other");

    assertThat(CasPointerSteps.landed("ours", before, ours)).isEqualTo(CasPointerSteps.Landed.YES);
    assertThat(CasPointerSteps.landed("ours", before, other)).isEqualTo(CasPointerSteps.Landed.NO);
    ControlDocument later = ours;
    for (int i = 0; i < ControlDocument.RECENT_WRITES; i++) {
      later = later.registered(Epoch.of(3), "i", "later-" + i);
    }
    assertThat(CasPointerSteps.landed("ours", before, later))
        .isEqualTo(CasPointerSteps.Landed.UNKNOWN);
  }
}
