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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.GrowthRun.Dimension;
import dev.fenceline.benchmarks.Options.StoreKind;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Fills a JDBC store for the growth run with SQL, through the tables of its public schema: every
 * row the store keeps for a resource (or for one version) written through the API is copied with
 * {@code INSERT ... SELECT} over a series of numbers (PostgreSQL's {@code generate_series}, a
 * recursive CTE on SQLite), in the copy the resource name (or the version number and operation ID)
 * replaced. The tables and columns are read from the database, not assumed: every table whose name
 * starts with {@code fenceline_} and has a {@code resource} column takes part (for versions, those
 * with an {@code operation} column), so a changed layout is copied as it is; {@link GrowthRun}
 * checks through the API that the store sees the copies, and falls back to the API if not. After
 * each copy PostgreSQL's tables are {@code ANALYZE}d, as autovacuum would soon do.
 */
final class JdbcBulkPopulation implements GrowthRun.Bulk {

  private final StoreKind kind;
  private final DataSource pool;
  private Map<String, List<String>> tables;
  private final Map<Dimension, Map<String, Long>> copied = new EnumMap<>(Dimension.class);

  JdbcBulkPopulation(StoreKind kind, DataSource pool) {
    this.kind = kind;
    this.pool = pool;
  }

  @Override
  public String describe(Dimension dimension) {
    Map<String, Long> rows = copied.getOrDefault(dimension, Map.of());
    String tablesShown =
        rows.isEmpty()
            ? "every fenceline_ table with a resource column"
            : String.join(
                ", ",
                rows.entrySet().stream()
                    .filter(table -> table.getValue() > 0)
                    .map(table -> table.getKey())
                    .toList());
    return "SQL: INSERT ... SELECT copies of the rows of one "
        + (dimension == Dimension.RESOURCES ? "resource" : "version")
        + " written through the API ("
        + tablesShown
        + ") over "
        + (kind == StoreKind.POSTGRESQL ? "generate_series, then ANALYZE" : "a recursive CTE")
        + ", at most 100,000 copies a statement";
  }

  @Override
  public void copyResource(ResourceId template, String namePrefix, long from, long to)
      throws SQLException {
    try (Connection connection = pool.getConnection()) {
      for (Map.Entry<String, List<String>> table : tables().entrySet()) {
        String sql =
            copy(
                table.getKey(),
                table.getValue(),
                column ->
                    switch (column) {
                      case "resource" -> concat("CAST(? AS VARCHAR(200))", "s.g");
                      case "operation" -> concat("t.operation", "'-'", "s.g");
                      default -> "t." + column;
                    },
                "t.resource = ?");
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
          insert.setString(1, namePrefix);
          insert.setLong(2, from);
          insert.setLong(3, to);
          insert.setString(4, template.value());
          count(Dimension.RESOURCES, table.getKey(), insert.executeUpdate());
        }
      }
      analyze(connection);
    }
  }

  @Override
  public void copyVersions(ResourceId resource, OperationId template, long from, long to)
      throws SQLException {
    try (Connection connection = pool.getConnection()) {
      for (Map.Entry<String, List<String>> table : tables().entrySet()) {
        List<String> columns = table.getValue();
        if (!columns.contains("operation")) {
          continue; // control rows: one per resource
        }
        String sql =
            copy(
                table.getKey(),
                columns,
                column ->
                    switch (column) {
                      case "operation" -> concat("t.operation", "'-'", "s.g");
                      case "version" -> "s.g";
                      default -> "t." + column;
                    },
                "t.resource = ? AND t.operation = ?");
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
          insert.setLong(1, from);
          insert.setLong(2, to);
          insert.setString(3, resource.value());
          insert.setString(4, template.value());
          count(Dimension.VERSIONS, table.getKey(), insert.executeUpdate());
        }
      }
      analyze(connection);
    }
  }

  /**
   * {@code INSERT INTO table (columns) SELECT value of each column FROM table t, series WHERE
   * where}: copies of the rows {@code where} selects, one per number of the series.
   */
  private String copy(
      String table,
      List<String> columns,
      java.util.function.Function<String, String> valueOf,
      String where) {
    return "INSERT INTO "
        + table
        + " ("
        + String.join(", ", columns)
        + ") SELECT "
        + String.join(", ", columns.stream().map(valueOf).toList())
        + " FROM "
        + table
        + " t, "
        + series()
        + " WHERE "
        + where;
  }

  private void count(Dimension dimension, String table, int rows) {
    copied.computeIfAbsent(dimension, d -> new TreeMap<>()).merge(table, (long) rows, Long::sum);
  }

  /** A derived table {@code s(g)} of the numbers of the next two parameters, inclusive. */
  private String series() {
    return kind == StoreKind.POSTGRESQL
        ? "generate_series(CAST(? AS BIGINT), CAST(? AS BIGINT)) AS s(g)"
        : "(WITH RECURSIVE n(g) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT g + 1 FROM n"
            + " WHERE g < CAST(? AS INTEGER)) SELECT g FROM n) AS s";
  }

  private static String concat(String... parts) {
    return "(" + String.join(" || ", parts) + ")";
  }

  private void analyze(Connection connection) throws SQLException {
    if (kind != StoreKind.POSTGRESQL) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      for (String table : tables().keySet()) {
        statement.execute("ANALYZE " + table);
      }
    }
  }

  /** Every {@code fenceline_*} table with a {@code resource} column, and its columns. */
  private synchronized Map<String, List<String>> tables() throws SQLException {
    if (tables != null) {
      return tables;
    }
    Map<String, List<String>> found = new LinkedHashMap<>();
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement()) {
      List<String> names = new ArrayList<>();
      String list =
          kind == StoreKind.POSTGRESQL
              ? "SELECT table_name FROM information_schema.tables WHERE table_schema ="
                  + " current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
              : "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
      try (ResultSet rows = statement.executeQuery(list)) {
        while (rows.next()) {
          String name = rows.getString(1).toLowerCase(Locale.ROOT);
          if (name.startsWith("fenceline_")) {
            names.add(name);
          }
        }
      }
      for (String name : names) {
        List<String> columns = new ArrayList<>();
        try (ResultSet empty = statement.executeQuery("SELECT * FROM " + name + " WHERE 1 = 0")) {
          ResultSetMetaData meta = empty.getMetaData();
          for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(meta.getColumnName(i).toLowerCase(Locale.ROOT));
          }
        }
        if (columns.contains("resource")) {
          found.put(name, List.copyOf(columns));
        }
      }
    }
    tables = found;
    return tables;
  }
}
