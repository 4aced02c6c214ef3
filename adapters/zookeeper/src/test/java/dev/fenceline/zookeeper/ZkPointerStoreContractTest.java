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
package dev.fenceline.zookeeper;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.PointerStoreContract;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The pointer-store suite (the destination TCK with pause points, plus the pointer tests) on {@link
 * ZkPointerStore} against a 3-server ensemble, with the {@link ZkLeaseIssuer} on the same root.
 */
class ZkPointerStoreContractTest extends PointerStoreContract {

  private ZkTestStores stores;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "pointer-tck");
  }

  @AfterEach
  void close() {
    stores.close();
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return stores.store(keys).pointerStore(name, steps);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP;
  }

  @Override
  protected LeaseIssuer issuer() {
    return stores.store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    stores.restart();
  }
}
