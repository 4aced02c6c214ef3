package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The store a test works with: opened on first use, reopened after a restart of the database,
 * closed after the test. Tests keep one in a field and close it in an {@code @AfterEach}.
 */
public final class OpenStore implements AutoCloseable {

  private final Supplier<TestDatabase> database;
  private JdbcStore store;

  /** Opens stores on the database {@code database} supplies (looked up on first use). */
  public OpenStore(Supplier<TestDatabase> database) {
    this.database = requireNonNull(database, "database is null");
  }

  /** The open store. */
  public JdbcStore get() {
    return get(builder -> builder);
  }

  /**
   * The open store; on first use it is opened with the database's settings changed by {@code
   * settings} (for example token keys).
   */
  public JdbcStore get(UnaryOperator<JdbcStore.Builder> settings) {
    if (store == null) {
      store = settings.apply(database.get().storeBuilder()).build();
    }
    return store;
  }

  /** Closes the store, restarts the database on the same data; the next {@link #get} reopens. */
  public void restartDatabase() {
    close();
    database.get().restart();
  }

  @Override
  public void close() {
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
