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
package dev.fenceline.jdbc;

import static dev.fenceline.jdbc.Intercepted.invoke;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsafeStoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pooled connection goes back to the pool without an open transaction whatever failed (a
 * statement of the change, the commit), and every connection the pool hands out is configured (lock
 * wait, durability check, auto-commit), not only the first. With a pool of one connection, a
 * transaction left open holds the database's write lock (SQLite) or the control row's lock
 * (PostgreSQL) until that connection is used again.
 */
class PooledConnectionFailuresTest {

  /** Fresh per test: the PostgreSQL database is shared by the whole test run. */
  private final ResourceId ledger = ResourceId.of("ledger/acct-" + System.nanoTime());

  private static final Duration LOCK_TIMEOUT = Duration.ofMillis(1234);

  @TempDir Path directory;

  private FencingToken token(long epoch) {
    return new FencingToken("test-issuer", ledger, Epoch.of(epoch), "worker-" + epoch);
  }

  private static JdbcChange noChange() {
    return (connection, token, operation) -> Map.of();
  }

  private Path sqliteFile() {
    Path file = directory.resolve("fenceline.db");
    JdbcStore.sqlite(file).close();
    return file;
  }

  private static JdbcStore over(DataSource pool) {
    return JdbcStore.builder()
        .dataSource(pool, "one-connection pool")
        .lockTimeout(LOCK_TIMEOUT)
        .build();
  }

  private static JdbcStore other(String url) {
    return JdbcStore.builder().url(url).lockTimeout(Duration.ofSeconds(1)).build();
  }

  /**
   * After the failure, another connection must get the lock at once, and the pool's connection must
   * still work; the failed step left nothing (its epoch included).
   */
  private void assertNothingLeftOpen(JdbcStore pooled, String url, String failedOperation) {
    try (JdbcStore other = other(url)) {
      assertThat(other.destination("reports").write(token(1), OperationId.of("other"), noChange()))
          .as("another connection writes while the pool's connection is idle")
          .isInstanceOf(Applied.class);
      assertThat(other.destination("reports").lookup(ledger, OperationId.of(failedOperation)))
          .isEmpty();
      assertThat(other.destination("reports").currentEpoch(ledger)).isEqualTo(Epoch.of(1));
    }
    assertThat(pooled.destination("reports").lookup(ledger, OperationId.of(failedOperation)))
        .isEmpty();
    assertThat(pooled.destination("reports").write(token(1), OperationId.of("next"), noChange()))
        .as("the pool's connection came back from the lookup too")
        .isInstanceOf(Applied.class);
  }

  private void aFailingStatementOfTheChangeRollsBack(String url) throws SQLException {
    try (SingleConnectionPool pool = new SingleConnectionPool(url);
        JdbcStore pooled = over(pool)) {
      JdbcChange failing =
          (connection, token, operation) -> {
            try (Statement statement = connection.createStatement()) {
              statement.execute("INSERT INTO no_such_table VALUES (1)");
            }
            return Map.of();
          };

      assertThatThrownBy(
              () -> pooled.destination("reports").write(token(2), OperationId.of("fails"), failing))
          .isInstanceOfSatisfying(
              StoreException.class, failure -> assertThat(failure.outcomeUnknown()).isFalse());

      assertNothingLeftOpen(pooled, url, "fails");
    }
  }

  @Test
  void aFailingStatementOfTheChangeRollsBackOnSqlite() throws SQLException {
    aFailingStatementOfTheChangeRollsBack("jdbc:sqlite:" + sqliteFile());
  }

  @Test
  void aFailingStatementOfTheChangeRollsBackOnPostgres() throws SQLException {
    aFailingStatementOfTheChangeRollsBack(PostgresDatabase.shared().url());
  }

  @Test
  void anUncheckedExceptionOfTheChangeRollsBackAndIsRethrownUnchanged() throws SQLException {
    String url = "jdbc:sqlite:" + sqliteFile();
    try (SingleConnectionPool pool = new SingleConnectionPool(url);
        JdbcStore pooled = over(pool)) {
      IllegalStateException thrown = new IllegalStateException("the report generator crashed");

      assertThatThrownBy(
              () ->
                  pooled
                      .destination("reports")
                      .write(
                          token(2),
                          OperationId.of("fails"),
                          (connection, token, operation) -> {
                            throw thrown;
                          }))
          .isSameAs(thrown);

      assertNothingLeftOpen(pooled, url, "fails");
    }
  }

  /**
   * A pool whose connections' {@code COMMIT} (SQLite), {@link Connection#commit()}, or PostgreSQL
   * statement sent with its {@code COMMIT} fails once without committing, once {@code failCommit}
   * is set: as when the database is busy, or (PostgreSQL) the connection drops before the server
   * saw the statement.
   */
  private static DataSource failingCommitOnce(SingleConnectionPool pool, AtomicBoolean failCommit) {
    return Intercepted.wrap(
        DataSource.class,
        pool,
        (source, method, args) -> {
          if (!method.getName().equals("getConnection")) {
            return invoke(method, source, args);
          }
          return Intercepted.wrap(
              Connection.class,
              source.getConnection(),
              (lent, call, callArgs) -> {
                if (call.getName().equals("commit")) {
                  failOnce(failCommit);
                }
                Object result = invoke(call, lent, callArgs);
                if (call.getName().equals("prepareStatement")
                    && JdbcConnectionFailuresTest.commitsItself(callArgs[0])) {
                  return Intercepted.wrap(
                      PreparedStatement.class,
                      (PreparedStatement) result,
                      (prepared, statementCall, statementArgs) -> {
                        if (statementCall.getName().startsWith("execute")
                            && failCommit.compareAndSet(true, false)) {
                          // PostgreSQL: the statement carrying the COMMIT gets no answer.
                          throw new SQLException("I/O error: connection reset", "08006");
                        }
                        return invoke(statementCall, prepared, statementArgs);
                      });
                }
                if (!call.getName().equals("createStatement")) {
                  return result;
                }
                return Intercepted.wrap(
                    Statement.class,
                    (Statement) result,
                    (statement, statementCall, statementArgs) -> {
                      if (statementCall.getName().equals("execute")
                          && "COMMIT".equalsIgnoreCase(String.valueOf(statementArgs[0]))) {
                        failOnce(failCommit);
                      }
                      return invoke(statementCall, statement, statementArgs);
                    });
              });
        });
  }

  private static void failOnce(AtomicBoolean failCommit) throws SQLException {
    if (failCommit.compareAndSet(true, false)) {
      throw new SQLException("[SQLITE_BUSY] The database file is locked (database is locked)");
    }
  }

  private void aCommitThatFailsIsRolledBack(String url) throws SQLException {
    AtomicBoolean failCommit = new AtomicBoolean();
    try (SingleConnectionPool pool = new SingleConnectionPool(url);
        JdbcStore pooled = over(failingCommitOnce(pool, failCommit))) {
      failCommit.set(true);

      assertThatThrownBy(
              () ->
                  pooled
                      .destination("reports")
                      .write(token(2), OperationId.of("fails"), noChange()))
          .isInstanceOfSatisfying(
              StoreException.class, failure -> assertThat(failure.outcomeUnknown()).isTrue());
      assertThat(failCommit).as("the planted commit failure fired").isFalse();

      assertNothingLeftOpen(pooled, url, "fails");
    }
  }

  @Test
  void aCommitThatFailsIsRolledBackOnSqlite() throws SQLException {
    aCommitThatFailsIsRolledBack("jdbc:sqlite:" + sqliteFile());
  }

  @Test
  void aCommitThatFailsIsRolledBackOnPostgres() throws SQLException {
    aCommitThatFailsIsRolledBack(PostgresDatabase.shared().url());
  }

  @Test
  void everyConnectionThePoolHandsOutIsConfiguredNotOnlyTheFirst() throws SQLException {
    String url = "jdbc:sqlite:" + sqliteFile();
    try (SingleConnectionPool pool = new SingleConnectionPool(url);
        JdbcStore pooled = over(pool)) {
      // Someone else used the pooled connection in between and changed its settings.
      try (Connection lent = pool.getConnection();
          Statement statement = lent.createStatement()) {
        statement.execute("PRAGMA busy_timeout = 0");
        lent.setAutoCommit(false);
      }

      assertThat(pooled.destination("reports").write(token(1), OperationId.of("a"), noChange()))
          .isInstanceOf(Applied.class);
      try (Connection lent = pool.getConnection();
          Statement statement = lent.createStatement();
          ResultSet rows = statement.executeQuery("PRAGMA busy_timeout")) {
        rows.next();
        assertThat(rows.getLong(1)).isEqualTo(LOCK_TIMEOUT.toMillis());
      }
      try (Connection lent = pool.getConnection();
          Statement statement = lent.createStatement()) {
        statement.execute("PRAGMA synchronous = OFF");
      }

      assertThatThrownBy(
              () -> pooled.destination("reports").write(token(1), OperationId.of("b"), noChange()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("PRAGMA synchronous is 0 (below FULL = 2)");
      try (JdbcStore other = other(url)) {
        assertThat(other.destination("reports").lookup(ledger, OperationId.of("b"))).isEmpty();
      }
      try (Connection lent = pool.getConnection()) {
        assertThat(lent.isClosed()).as("the refused connection went back to the pool").isFalse();
      }
    }
  }
}
