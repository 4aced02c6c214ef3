package dev.fenceline.jdbc;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.PointerStoreContract;
import org.junit.jupiter.api.AfterEach;

/** Runs the pointer-store suite ("publish a named value"); subclasses pick the database. */
abstract class JdbcPointerStoreContractTest extends PointerStoreContract {

  private JdbcStore store;

  abstract TestDatabase database();

  private JdbcStore store() {
    if (store == null) {
      store = database().openStore();
    }
    return store;
  }

  @Override
  protected PointerStore pointerStore(StepListener steps) {
    return store().pointerStore(steps);
  }

  @Override
  protected LeaseIssuer issuer() {
    return store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store().close();
    store = null;
    database().restart();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }
}
