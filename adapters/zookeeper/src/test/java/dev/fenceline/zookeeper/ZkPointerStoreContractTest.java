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
