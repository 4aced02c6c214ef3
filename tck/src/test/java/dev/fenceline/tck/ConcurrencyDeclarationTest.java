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
package dev.fenceline.tck;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.memory.InMemoryCasPointerStore;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A wrong {@link DestinationContract#concurrencyControl()} fails the suite's declaration check with
 * its cause, fast: the reference stores, each declared as the other kind.
 */
class ConcurrencyDeclarationTest {

  @Test
  void aStoreDeclaredLockingWhoseSecondWriterDoesNotWaitIsToldSo() {
    MisDeclared suite =
        new MisDeclared(ConcurrencyControl.LOCKING) {
          private final InMemoryCasPointerStore.Storage storage =
              new InMemoryCasPointerStore.Storage();

          @Override
          protected PointerStore pointerStore(
              String name, StepListener steps, Optional<TokenKeys> keys) {
            return new InMemoryCasPointerStore(storage, name, steps, Clock.systemUTC());
          }
        };

    assertThatThrownBy(suite::theSecondWriterWaitsIfAndOnlyIfTheStoreIsDeclaredLocking)
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("the second writer did not wait: is this store LOCKING? (")
        .hasMessageContaining("COMPARE_AND_SWAP");
  }

  @Test
  void aStoreDeclaredCompareAndSwapWhoseSecondWriterWaitsIsToldSo() {
    MisDeclared suite =
        new MisDeclared(ConcurrencyControl.COMPARE_AND_SWAP) {
          private final InMemoryPointerStore.Storage storage = new InMemoryPointerStore.Storage();

          @Override
          protected PointerStore pointerStore(
              String name, StepListener steps, Optional<TokenKeys> keys) {
            return new InMemoryPointerStore(storage, name, steps, Clock.systemUTC());
          }
        };

    assertThatThrownBy(suite::theSecondWriterWaitsIfAndOnlyIfTheStoreIsDeclaredLocking)
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("the second writer waited: is this store COMPARE_AND_SWAP? (")
        .hasMessageContaining("did not finish within PT1S")
        .hasMessageContaining("LOCKING");
  }

  /** A pointer-store suite whose declaration is given, run one test at a time by hand. */
  private abstract static class MisDeclared extends PointerStoreContract {
    private final ConcurrencyControl declared;
    private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

    MisDeclared(ConcurrencyControl declared) {
      this.declared = declared;
    }

    @Override
    protected ConcurrencyControl concurrencyControl() {
      return declared;
    }

    @Override
    Duration secondWriterLimit() {
      return Duration.ofSeconds(1); // the real limit is 10 s; the failure is the same
    }

    @Override
    protected LeaseIssuer issuer() {
      return new InMemoryLeaseIssuer(issuerStorage, Clock.systemUTC());
    }

    @Override
    protected void restartStore() {}
  }
}
