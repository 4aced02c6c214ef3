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
