package dev.fenceline.jdbc;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.LeaseIssuerContract;
import org.junit.jupiter.api.AfterEach;

/** Runs the issuer suite on one database; subclasses pick SQLite or PostgreSQL. */
abstract class JdbcLeaseIssuerContractTest extends LeaseIssuerContract {

  private JdbcStore store;

  abstract TestDatabase database();

  private JdbcStore store() {
    if (store == null) {
      store = database().openStore();
    }
    return store;
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
