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
import dev.fenceline.tck.LeaseIssuerContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The issuer suite on {@link ZkLeaseIssuer} against a 3-server ensemble; expiry is the ensemble's
 * (the suite polls the issuer's status), a store restart is a full ensemble restart.
 */
class ZkLeaseIssuerContractTest extends LeaseIssuerContract {

  private ZkTestStores stores;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "issuer-tck");
  }

  @AfterEach
  void close() {
    stores.close();
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
