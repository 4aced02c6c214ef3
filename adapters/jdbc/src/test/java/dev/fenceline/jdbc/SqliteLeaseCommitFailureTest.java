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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite lease step whose commit fails is an unknown outcome (issue 18, item 10c): the commit may
 * have reached the file, so "nothing committed" would be a claim the store cannot prove. The
 * wrapped connections fail at the point where the step commits, after the real commit ran (as
 * {@code SQLITE_IOERR} from the commit's sync does): an explicit {@code COMMIT}, or, for a
 * statement in auto-commit mode, its last step (SQLite commits an auto-commit statement when it is
 * stepped to its end).
 */
class SqliteLeaseCommitFailureTest {

  private static final ResourceId RESOURCE = ResourceId.of("nightly-report");
  private static final Duration TTL = Duration.ofMinutes(1);

  @TempDir Path directory;

  private final AtomicBoolean failCommit = new AtomicBoolean();

  @Test
  void anAcquireWhoseCommitFailsIsAnUnknownOutcome() {
    try (JdbcStore store = open()) {
      JdbcLeaseIssuer issuer = store.leaseIssuer();
      failCommit.set(true);

      assertUnknown(() -> issuer.tryAcquire(RESOURCE, "worker-a", TTL));

      LeaseStatus status = issuer.status(RESOURCE);
      assertThat(status.epoch()).as("the acquire landed").isEqualTo(Epoch.of(1));
      assertThat(status.holder()).contains("worker-a");
    }
  }

  @Test
  void aRenewalWhoseCommitFailsIsAnUnknownOutcome() {
    try (JdbcStore store = open()) {
      JdbcLeaseIssuer issuer = store.leaseIssuer();
      Lease lease = issuer.tryAcquire(RESOURCE, "worker-a", Duration.ofSeconds(5)).orElseThrow();
      failCommit.set(true);

      assertUnknown(() -> issuer.renew(new Lease(lease.token(), lease.expiresAt(), TTL)));

      assertThat(issuer.status(RESOURCE).expiresAt().orElseThrow())
          .as("the renewal landed")
          .isAfter(lease.expiresAt());
    }
  }

  @Test
  void aReleaseWhoseCommitFailsIsAnUnknownOutcome() {
    try (JdbcStore store = open()) {
      JdbcLeaseIssuer issuer = store.leaseIssuer();
      Lease lease = issuer.tryAcquire(RESOURCE, "worker-a", TTL).orElseThrow();
      failCommit.set(true);

      assertUnknown(() -> issuer.release(lease));

      assertThat(issuer.status(RESOURCE).holder()).as("the release landed").isEmpty();
    }
  }

  private void assertUnknown(org.assertj.core.api.ThrowableAssert.ThrowingCallable step) {
    assertThatThrownBy(step)
        .isInstanceOfSatisfying(
            StoreException.class,
            failure -> {
              assertThat(failure.outcomeUnknown()).as("outcomeUnknown").isTrue();
              assertThat(failure).hasMessageContaining("may or may not have happened");
            });
    assertThat(failCommit).as("the planted commit failure fired").isFalse();
  }

  private JdbcStore open() {
    Path file = directory.resolve("fenceline.db");
    JdbcStore.sqlite(file).close();
    return JdbcStore.builder()
        .dataSource(Intercepted.connectingTo("jdbc:sqlite:" + file, this::connection), "flaky")
        .build();
  }

  private SQLException ioError() {
    return new SQLException("[SQLITE_IOERR_FSYNC] I/O error during fsync (disk I/O error)");
  }

  /** Fails once, when {@link #failCommit} is set, after the step's commit really ran. */
  private void failAfterCommit() throws SQLException {
    if (failCommit.compareAndSet(true, false)) {
      throw ioError();
    }
  }

  /**
   * A connection that fails at the commit point of a transaction once {@link #failCommit} is set.
   */
  private Connection connection(Connection real) {
    // Whether a BEGIN opened a transaction that has not ended: statements inside it commit with
    // the COMMIT, not by themselves.
    boolean[] explicit = {false};
    return Intercepted.wrap(
        Connection.class,
        real,
        (connection, call, args) -> {
          Object result = invoke(call, connection, args);
          if (call.getName().equals("commit")) {
            failAfterCommit();
          }
          if (call.getName().equals("createStatement")) {
            return Intercepted.wrap(
                Statement.class,
                (Statement) result,
                (statement, statementCall, statementArgs) -> {
                  Object answer = invoke(statementCall, statement, statementArgs);
                  if (statementCall.getName().startsWith("execute")) {
                    String sql = String.valueOf(statementArgs[0]).trim();
                    String word = sql.split("\\s+")[0].toUpperCase(Locale.ROOT);
                    if (word.equals("BEGIN")) {
                      explicit[0] = true;
                    } else if (word.equals("COMMIT") || word.equals("ROLLBACK")) {
                      explicit[0] = false;
                      if (word.equals("COMMIT")) {
                        failAfterCommit();
                      }
                    }
                  }
                  return answer;
                });
          }
          if (call.getName().equals("prepareStatement")
              && String.valueOf(args[0]).contains("fenceline_lease")
              && !String.valueOf(args[0]).trim().toUpperCase(Locale.ROOT).startsWith("SELECT")) {
            return autoCommitting((PreparedStatement) result, explicit);
          }
          return result;
        });
  }

  /**
   * A lease statement that, in auto-commit mode, fails where SQLite commits it: an update count
   * after it ran, a result set when it is stepped past its last row.
   */
  private PreparedStatement autoCommitting(PreparedStatement real, boolean[] explicit) {
    return Intercepted.wrap(
        PreparedStatement.class,
        real,
        (statement, call, args) -> {
          Object answer = invoke(call, statement, args);
          if (explicit[0] || !statement.getConnection().getAutoCommit()) {
            return answer;
          }
          if (call.getName().equals("executeUpdate")) {
            failAfterCommit();
          }
          if (answer instanceof ResultSet rows) {
            return failingAtEnd(rows);
          }
          return answer;
        });
  }

  private ResultSet failingAtEnd(ResultSet real) {
    return Intercepted.wrap(
        ResultSet.class,
        real,
        (rows, call, args) -> {
          Object answer = invoke(call, rows, args);
          if (call.getName().equals("next") && Boolean.FALSE.equals(answer)) {
            failAfterCommit();
          }
          return answer;
        });
  }
}
