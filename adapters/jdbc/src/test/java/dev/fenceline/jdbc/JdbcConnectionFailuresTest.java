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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the store reports when the connection misbehaves around a commit. */
class JdbcConnectionFailuresTest {

  @TempDir Path directory;

  /** A data source that opens {@code url} and lets {@code calls} handle each connection call. */
  private static DataSource wrapping(String url, Intercepted.Handler<Connection> calls) {
    return Intercepted.connectingTo(url, real -> Intercepted.wrap(Connection.class, real, calls));
  }

  /** A data source whose connections fail to close (after really closing). */
  private static DataSource closeFailing(String url) {
    return wrapping(
        url,
        (real, call, callArgs) -> {
          Object result = invoke(call, real, callArgs);
          if (call.getName().equals("close")) {
            throw new SQLException("network blip while closing");
          }
          return result;
        });
  }

  @Test
  void aCommittedWriteIsReportedAppliedEvenIfClosingTheConnectionFails() {
    String url = "jdbc:sqlite:" + directory.resolve("fenceline.db");
    JdbcStore.sqlite(directory.resolve("fenceline.db")).close();
    try (JdbcStore store =
        JdbcStore.builder().dataSource(closeFailing(url), "flaky pool").build()) {
      ResourceId resource = ResourceId.of("nightly-report");

      var outcome =
          store
              .pointerStore("reports")
              .write(
                  new FencingToken(store.id(), resource, Epoch.of(1), "worker-a"),
                  OperationId.of("op"),
                  Pointer.to("published"));

      assertThat(outcome).isInstanceOf(Applied.class);
      assertThat(store.pointerStore("reports").lookup(resource, OperationId.of("op")))
          .contains(((Applied) outcome).receipt());
    }
  }

  /**
   * A data source whose connections, once {@code failCommits} is set, really commit and then throw,
   * as when the connection drops after the server committed: on {@link Connection#commit()}, on a
   * {@code COMMIT} statement (SQLite), and on a PostgreSQL statement that commits itself (a last
   * statement sent with its {@code COMMIT}, or a one-statement step on an auto-commit connection).
   * Fails one commit only.
   */
  private static DataSource commitThenFail(String url, AtomicBoolean failCommits) {
    return commitThenFail(
        url,
        failCommits,
        () -> new SQLException("I/O error: connection reset after COMMIT was sent", "08006"));
  }

  /** As {@link #commitThenFail(String, AtomicBoolean)}, throwing what {@code failure} makes. */
  private static DataSource commitThenFail(
      String url, AtomicBoolean failCommits, Supplier<SQLException> failure) {
    return wrapping(
        url,
        (real, call, callArgs) -> {
          Object result = invoke(call, real, callArgs);
          if (call.getName().equals("commit")) {
            failAfterCommit(failCommits, failure);
          }
          if (call.getName().equals("prepareStatement") && commitsItself(callArgs[0])) {
            return Intercepted.wrap(
                PreparedStatement.class,
                (PreparedStatement) result,
                (statement, statementCall, statementArgs) -> {
                  Object answer = invoke(statementCall, statement, statementArgs);
                  if (statementCall.getName().startsWith("execute")) {
                    failAfterCommit(failCommits, failure);
                  }
                  return answer;
                });
          }
          if (call.getName().equals("createStatement")) {
            return Intercepted.wrap(
                Statement.class,
                (Statement) result,
                (statement, statementCall, statementArgs) -> {
                  Object answer = invoke(statementCall, statement, statementArgs);
                  if (statementCall.getName().equals("execute")
                      && "COMMIT".equalsIgnoreCase(String.valueOf(statementArgs[0]))) {
                    failAfterCommit(failCommits, failure);
                  }
                  return answer;
                });
          }
          return result;
        });
  }

  /** Whether a prepared statement is one that commits itself on PostgreSQL. */
  static boolean commitsItself(Object sql) {
    String text = String.valueOf(sql);
    return text.endsWith("; COMMIT") || text.contains(Schema.PUBLISH_POINTER + "(");
  }

  private static void failAfterCommit(AtomicBoolean failCommits, Supplier<SQLException> failure)
      throws SQLException {
    if (failCommits.compareAndSet(true, false)) {
      throw failure.get();
    }
  }

  private static void assertAFailedCommitIsReportedAsUnknown(
      DataSource source, AtomicBoolean fail) {
    try (JdbcStore store = JdbcStore.builder().dataSource(source, "flaky pool").build()) {
      ResourceId resource = ResourceId.of("commit-fails-" + System.nanoTime());
      FencingToken token = new FencingToken("test-issuer", resource, Epoch.of(1), "worker-a");
      // Registered first, so the publish is one statement that commits (on PostgreSQL the plain
      // statement; without a control row it would leave the step to the function, a second one).
      store.pointerStore("reports").register(token);
      fail.set(true);

      assertThatThrownBy(
              () ->
                  store
                      .pointerStore("reports")
                      .write(token, OperationId.of("op"), Pointer.to("report")))
          .isInstanceOfSatisfying(
              StoreException.class,
              failure -> {
                assertThat(failure.outcomeUnknown()).isTrue();
                assertThat(failure).hasMessageContaining("may or may not have happened");
              });

      assertThat(fail).as("the planted commit failure fired").isFalse();
      Receipt receipt =
          store.pointerStore("reports").lookup(resource, OperationId.of("op")).orElseThrow();
      assertThat(receipt.attribute(PointerStore.TARGET_ATTRIBUTE)).contains("report");
      assertThat(
              store
                  .pointerStore("reports")
                  .write(token, OperationId.of("op"), Pointer.to("report")))
          .as("the retry with the same operation ID")
          .isEqualTo(new AlreadyApplied(receipt));
    }
  }

  @Test
  void r4_aCommitThatFailsAfterCommittingIsReportedAsUnknownOnSqlite() {
    Path file = directory.resolve("fenceline.db");
    JdbcStore.sqlite(file).close();
    AtomicBoolean fail = new AtomicBoolean();

    assertAFailedCommitIsReportedAsUnknown(commitThenFail("jdbc:sqlite:" + file, fail), fail);
  }

  /**
   * The server answered, but with an error that ended its session: pgjdbc reports the server's
   * error (here a PANIC, as when fsync of the WAL fails after the commit record was written, which
   * crash recovery may still replay) with the lost connection ({@code 08006}) as the next
   * exception. The shape is pgjdbc's for a FATAL error followed by the end of the connection
   * (checked by hand with {@code pg_terminate_backend(pg_backend_pid())}: 57P01, then 08006,
   * connection closed).
   */
  @Test
  void r4_aServerErrorThatEndsTheSessionWithTheCommitIsReportedAsUnknownOnPostgres() {
    AtomicBoolean fail = new AtomicBoolean();
    Supplier<SQLException> panic =
        () -> {
          SQLException error =
              new SQLException(
                  "PANIC: could not fsync file \"pg_wal/000000010000000000000001\":"
                      + " Input/output error",
                  "58030");
          error.setNextException(
              new SQLException("An I/O error occurred while sending to the backend.", "08006"));
          return error;
        };

    assertAFailedCommitIsReportedAsUnknown(
        commitThenFail(PostgresDatabase.shared().url(), fail, panic), fail);
  }

  @Test
  void r4_aCommitThatFailsAfterCommittingIsReportedAsUnknownOnPostgres() {
    AtomicBoolean fail = new AtomicBoolean();

    assertAFailedCommitIsReportedAsUnknown(
        commitThenFail(PostgresDatabase.shared().url(), fail), fail);
  }
}
