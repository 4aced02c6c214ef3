package dev.fenceline.jdbc;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.LeaseIssuerContract;
import org.junit.jupiter.api.AfterEach;

/** Runs the issuer suite on one database; subclasses pick SQLite or PostgreSQL. */
abstract class JdbcLeaseIssuerContractTest extends LeaseIssuerContract {

  private final OpenStore store = new OpenStore(this::database);

  abstract TestDatabase database();

  private JdbcStore store() {
    return store.get();
  }

  @Override
  protected LeaseIssuer issuer() {
    return store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store.restartDatabase();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }
}
