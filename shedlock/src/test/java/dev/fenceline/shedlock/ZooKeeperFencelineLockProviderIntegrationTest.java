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
package dev.fenceline.shedlock;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.zookeeper.ZkEnsemble;
import dev.fenceline.zookeeper.ZkStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * ShedLock's own provider suite, unchanged, on a real three-server ZooKeeper ensemble (the
 * ZooKeeper adapter's fixture); expiry is decided by the ensemble.
 */
class ZooKeeperFencelineLockProviderIntegrationTest extends FencelineLockProviderSuite {

  private static ZkEnsemble ensemble;
  private static ZkStore store;

  @BeforeAll
  static void openStore() {
    ensemble = ZkEnsemble.start();
    store = ZkStore.builder(ensemble.connectString()).rootPath("/shedlock-suite").build();
  }

  @AfterAll
  static void closeStore() {
    try {
      store.close();
    } finally {
      ensemble.close();
    }
  }

  @Override
  LeaseIssuer issuer() {
    return store.leaseIssuer();
  }
}
