package dev.fenceline.shedlock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.PostgresDatabase;
import dev.fenceline.spi.LeaseIssuer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * ShedLock's own provider suite, unchanged, on a real PostgreSQL server (the JDBC adapter's
 * embedded fixture, durable settings) through a connection pool, as an application's {@code
 * DataSource} would be (without one, each step opens a server process: the fuzz test took 100 s).
 */
class PostgresFencelineLockProviderIntegrationTest extends FencelineLockProviderSuite {

  private static HikariDataSource pool;
  private static JdbcStore store;

  @BeforeAll
  static void openStore() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(PostgresDatabase.shared().url());
    config.setMaximumPoolSize(10);
    pool = new HikariDataSource(config);
    store = JdbcStore.builder().dataSource(pool, "embedded PostgreSQL").build();
  }

  @AfterAll
  static void closeStore() {
    try {
      store.close();
    } finally {
      pool.close();
    }
  }

  @Override
  LeaseIssuer issuer() {
    return store.leaseIssuer();
  }
}
