package dev.fenceline.shedlock;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.LeaseIssuer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** ShedLock's own provider suite, unchanged, on a SQLite file. */
class SqliteFencelineLockProviderIntegrationTest extends FencelineLockProviderSuite {

  @TempDir static Path directory;
  private static JdbcStore store;

  @BeforeAll
  static void openStore() {
    store = JdbcStore.sqlite(directory.resolve("shedlock.db"));
  }

  @AfterAll
  static void closeStore() {
    store.close();
  }

  @Override
  LeaseIssuer issuer() {
    return store.leaseIssuer();
  }
}
