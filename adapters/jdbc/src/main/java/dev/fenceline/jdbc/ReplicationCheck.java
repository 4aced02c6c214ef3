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

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a PostgreSQL primary's replication settings mean for epochs after a failover. A standby that
 * is not synchronous may miss the newest commits; promoted after a failover, its issuer would hand
 * the lost epochs out again (R1). The primary cannot stop a failover, so this is a warning, not a
 * refusal: only the operator knows whether failovers go to such a standby.
 *
 * @param standbys the rows of {@code pg_stat_replication} (standbys and other WAL receivers
 *     connected to this server)
 * @param synchronousStandbyNames {@code SHOW synchronous_standby_names}
 * @param synchronousCommit {@code SHOW synchronous_commit}
 */
record ReplicationCheck(
    List<Standby> standbys, String synchronousStandbyNames, String synchronousCommit) {

  /**
   * One row of {@code pg_stat_replication}.
   *
   * @param applicationName the standby's {@code application_name}; null if this user cannot see it
   * @param syncState {@code async}, {@code potential}, {@code sync} or {@code quorum}; null if this
   *     user cannot see it (it needs {@code pg_read_all_stats})
   */
  record Standby(String applicationName, String syncState) {}

  /** Validates the record and copies the rows. */
  ReplicationCheck {
    requireNonNull(standbys, "standbys is null");
    requireNonNull(synchronousStandbyNames, "synchronousStandbyNames is null");
    requireNonNull(synchronousCommit, "synchronousCommit is null");
    standbys = List.copyOf(standbys);
  }

  /** Reads the rows and settings from the server on {@code connection}. */
  static ReplicationCheck read(Connection connection) throws SQLException {
    List<Standby> standbys = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT application_name, sync_state FROM pg_stat_replication"
                    + " ORDER BY application_name")) {
      while (rows.next()) {
        standbys.add(new Standby(rows.getString(1), rows.getString(2)));
      }
    }
    return new ReplicationCheck(
        standbys,
        show(connection, "synchronous_standby_names"),
        show(connection, "synchronous_commit"));
  }

  private static String show(Connection connection, String setting) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SHOW " + setting)) {
      rows.next();
      return String.valueOf(rows.getString(1));
    }
  }

  /**
   * The warning to log when a failover could lose commits this server acknowledged: a standby is
   * {@code async} or {@code potential} (or its state cannot be read), or {@code synchronous_commit}
   * lets a commit return before a standby flushed it. Empty if no standby is connected, or every
   * standby is {@code sync} or {@code quorum} and commits wait for them ({@code on} or {@code
   * remote_apply}).
   *
   * @param database how to name the server in the message (no password)
   */
  Optional<String> warning(String database) {
    if (standbys.isEmpty()) {
      return Optional.empty();
    }
    List<String> behind = new ArrayList<>();
    int unreadable = 0;
    for (Standby standby : standbys) {
      String state = standby.syncState();
      if (state == null) {
        unreadable++;
      } else if (!state.equalsIgnoreCase("sync") && !state.equalsIgnoreCase("quorum")) {
        behind.add(
            (standby.applicationName() == null || standby.applicationName().isEmpty()
                    ? "(no application_name)"
                    : standby.applicationName())
                + " ("
                + state
                + ")");
      }
    }
    String commit = synchronousCommit.toLowerCase(Locale.ROOT);
    boolean commitsWaitForFlush = commit.equals("on") || commit.equals("remote_apply");
    if (behind.isEmpty() && unreadable == 0 && commitsWaitForFlush) {
      return Optional.empty();
    }
    List<String> findings = new ArrayList<>();
    if (!behind.isEmpty()) {
      findings.add("standbys that are not synchronous: " + String.join(", ", behind));
    }
    if (unreadable > 0) {
      findings.add(
          unreadable
              + " standby(s) whose sync_state this user cannot read (grant it pg_read_all_stats"
              + " to check them)");
    }
    if (synchronousStandbyNames.isBlank()) {
      findings.add("synchronous_standby_names is empty, so no standby is synchronous");
    }
    if (!commitsWaitForFlush) {
      findings.add(
          "synchronous_commit = "
              + synchronousCommit
              + (commit.equals("remote_write")
                  ? ", so a commit returns before a standby has flushed it"
                  : ", so a commit returns without waiting for any standby"));
    }
    return Optional.of(
        "PostgreSQL at "
            + database
            + " replicates with "
            + String.join("; ", findings)
            + ". A failover to a standby that is behind loses the newest commits, and its issuer"
            + " would hand the lost epochs out again (list the standbys in"
            + " synchronous_standby_names, e.g. 'ANY 1 (replica1, replica2)', set"
            + " synchronous_commit = on or remote_apply, and fail over only to a synchronous"
            + " standby; or accept the risk of failovers)");
  }
}
