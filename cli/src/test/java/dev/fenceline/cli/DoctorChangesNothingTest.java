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
package dev.fenceline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 8: {@code fenceline doctor} opens the stores that exist for reading, so a database
 * keeps its bytes, tables, rows and schema version, and a {@code vfs} directory is left as it was
 * (its case check removes its probe file). Separate processes, real files.
 */
@Timeout(120) // a failure detector only
class DoctorChangesNothingTest {

  private static final Map<String, String> NO_ENV = Map.of();

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("fenceline.db");
  }

  private Path reports() {
    return dir.resolve("reports");
  }

  private Path config() throws Exception {
    Files.createDirectories(reports());
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        destinations:
          reports:
            store: reports-dir
        """
            .formatted(db(), reports().toUri()));
  }

  private CliProcess.Result doctor(Path file) {
    return CliProcess.run(NO_ENV, "doctor", "--config", file.toString());
  }

  @Test
  void anEmptySqliteFileKeepsItsBytesAndGetsNoTables() throws Exception {
    Path file = config();
    Files.createFile(db());
    String before = sha256(db());

    CliProcess.Result result = doctor(file);

    assertThat(sha256(db())).as("the database file's bytes").isEqualTo(before);
    assertThat(Files.size(db())).isZero();
    assertThat(sideFiles()).as("no -wal or -shm file left").isEmpty();
    assertThat(listing(reports())).as("the vfs directory").isEmpty();
    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out())
        .as(result.transcript())
        .contains(
            "store main (jdbc): opened for reading; would create Fenceline's tables (schema v")
        .contains("(publish does it; doctor changes nothing)")
        .contains("reports ")
        .contains("STAGED_WITH_POINTER_STORE");
  }

  @Test
  void aStoreWithTablesKeepsItsTablesRowsAndVersion() throws Exception {
    Path file = config();
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      store.leaseIssuer(); // the tables exist, as after any earlier run
    }
    List<String> before = contents();

    CliProcess.Result result = doctor(file);

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out()).as(result.transcript()).contains("store main (jdbc): opened\n");
    assertThat(contents()).as("schema, version and rows").isEqualTo(before);
    assertThat(listing(reports())).as("the vfs directory").isEmpty();
  }

  @Test
  void anOlderSchemaIsReportedAndNotMigrated() throws Exception {
    Path file = config();
    try (JdbcStore store = JdbcStore.sqlite(db())) {
      store.leaseIssuer();
    }
    int current = schemaVersion();
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      // Stands for tables an older Fenceline created: a write open would migrate them.
      statement.execute("UPDATE fenceline_schema SET version = " + (current - 1));
    }
    List<String> before = contents();

    CliProcess.Result result = doctor(file);

    assertThat(schemaVersion()).as("the schema version").isEqualTo(current - 1);
    assertThat(contents()).as("schema, version and rows").isEqualTo(before);
    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out())
        .as(result.transcript())
        .contains(
            "store main (jdbc): opened for reading; would migrate Fenceline's schema from v"
                + (current - 1)
                + " to v"
                + current
                + " (publish does it; doctor changes nothing)");
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + db().toUri().toASCIIString());
  }

  private int schemaVersion() throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM fenceline_schema")) {
      rows.next();
      return rows.getInt(1);
    }
  }

  /** Every table's and index's DDL, and every row of every table, as text. */
  private List<String> contents() throws SQLException {
    List<String> lines = new ArrayList<>();
    List<String> tables = new ArrayList<>();
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      try (ResultSet rows =
          statement.executeQuery("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")) {
        while (rows.next()) {
          lines.add(rows.getString(1) + " " + rows.getString(2) + ": " + rows.getString(3));
          if (rows.getString(1).equals("table")) {
            tables.add(rows.getString(2));
          }
        }
      }
      for (String table : tables) {
        try (ResultSet rows = statement.executeQuery("SELECT * FROM \"" + table + "\"")) {
          int columns = rows.getMetaData().getColumnCount();
          while (rows.next()) {
            StringBuilder row = new StringBuilder(table).append(':');
            for (int column = 1; column <= columns; column++) {
              row.append(' ').append(rows.getString(column));
            }
            lines.add(row.toString());
          }
        }
      }
    }
    return lines;
  }

  private List<Path> sideFiles() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(path -> path.getFileName().toString().startsWith("fenceline.db-"))
          .toList();
    }
  }

  private static List<Path> listing(Path directory) throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.toList();
    }
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }
}
