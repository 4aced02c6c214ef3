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
