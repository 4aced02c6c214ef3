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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.ReplicationCheck.Standby;
import dev.fenceline.tck.CapturedWarnings;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * Asynchronous PostgreSQL replication: a failover to a standby that is behind loses recent epochs,
 * so the store warns when it opens on such a primary.
 */
class ReplicationCheckTest {

  private static final String DATABASE = "postgresql://db.example:5432/fenceline";

  private static ReplicationCheck check(String names, String commit, Standby... standbys) {
    return new ReplicationCheck(List.of(standbys), names, commit);
  }

  @Test
  void aPrimaryWithoutStandbysIsNotWarnedAbout() {
    assertThat(check("", "on").warning(DATABASE)).isEmpty();
    assertThat(check("", "local").warning(DATABASE))
        .as("no standby, no failover that could lose commits")
        .isEmpty();
  }

  @Test
  void synchronousAndQuorumStandbysWithCommitsThatWaitAreNotWarnedAbout() {
    Standby first = new Standby("replica1", "sync");
    Standby second = new Standby("replica2", "quorum");

    assertThat(check("ANY 1 (replica1, replica2)", "on", first, second).warning(DATABASE))
        .isEmpty();
    assertThat(check("replica1", "remote_apply", first).warning(DATABASE)).isEmpty();
  }

  @Test
  void anAsynchronousStandbyIsNamedWithWhatToConfigure() {
    assertThat(check("", "on", new Standby("replica1", "async")).warning(DATABASE))
        .contains(
            "PostgreSQL at "
                + DATABASE
                + " replicates with standbys that are not synchronous: replica1 (async);"
                + " synchronous_standby_names is empty, so no standby is synchronous. A failover to"
                + " a standby that is behind loses the newest commits, and its issuer would hand"
                + " the lost epochs out again (list the standbys in synchronous_standby_names, e.g."
                + " 'ANY 1 (replica1, replica2)', set synchronous_commit = on or remote_apply, and"
                + " fail over only to a synchronous standby; or accept the risk of failovers)");
  }

  @Test
  void aPotentialStandbyBesideASynchronousOneIsNamed() {
    ReplicationCheck check =
        check(
            "FIRST 1 (replica1, replica2)",
            "on",
            new Standby("replica1", "sync"),
            new Standby("replica2", "potential"));

    assertThat(check.warning(DATABASE))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .contains("standbys that are not synchronous: replica2 (potential).")
                    .doesNotContain("replica1 (")
                    .doesNotContain("synchronous_standby_names is empty"));
  }

  @Test
  void commitsThatDoNotWaitForAStandbyToFlushAreWarnedAboutEvenWithSynchronousStandbys() {
    Standby standby = new Standby("replica1", "sync");

    assertThat(check("replica1", "remote_write", standby).warning(DATABASE))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .contains(
                        "replicates with synchronous_commit = remote_write, so a commit returns"
                            + " before a standby has flushed it."));
    assertThat(check("replica1", "local", standby).warning(DATABASE))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .contains(
                        "synchronous_commit = local, so a commit returns without waiting for any"
                            + " standby."));
  }

  @Test
  void aStandbyWhoseStateThisUserCannotReadIsWarnedAbout() {
    assertThat(check("replica1", "on", new Standby(null, null)).warning(DATABASE))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .contains(
                        "1 standby(s) whose sync_state this user cannot read (grant it"
                            + " pg_read_all_stats to check them)"));
  }

  @Test
  void theEmbeddedServerHasNoStandbysAndOpensWithoutAWarning() throws Exception {
    PostgresDatabase server = PostgresDatabase.shared();
    try (Connection connection = server.connect()) {
      ReplicationCheck check = ReplicationCheck.read(connection);
      assertThat(check.standbys()).isEmpty();
      assertThat(check.synchronousCommit()).isEqualTo("on");
    }
    try (JdbcStore store = server.openStore()) {
      assertThat(store.replicationWarning()).isEmpty();
    }
  }

  /**
   * The store's own query, answered by a table that shadows {@code pg_stat_replication} (the
   * database's search path puts it before {@code pg_catalog}): an asynchronous standby without a
   * second server.
   */
  @Test
  void openingOnAPrimaryWithAnAsynchronousStandbyLogsTheWarning() throws Exception {
    TestDatabase database = PostgresDatabase.shared().newDatabase("fenceline_replication");
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA shadow");
      statement.execute(
          "CREATE TABLE shadow.pg_stat_replication (application_name text, sync_state text)");
      statement.execute("INSERT INTO shadow.pg_stat_replication VALUES ('reporting', 'async')");
      statement.execute(
          "ALTER DATABASE fenceline_replication SET search_path = shadow, public, pg_catalog");
    }
    try (CapturedWarnings captured = CapturedWarnings.of(JdbcStore.class);
        JdbcStore store = database.openStore()) {
      List<LogRecord> warnings = captured.records();
      assertThat(store.replicationWarning())
          .hasValueSatisfying(
              warning ->
                  assertThat(warning)
                      .startsWith("PostgreSQL at " + store.description() + " replicates with")
                      .contains("standbys that are not synchronous: reporting (async)"));
      assertThat(warnings)
          .extracting(LogRecord::getMessage)
          .containsExactly(store.replicationWarning().orElseThrow());
    }
  }
}
