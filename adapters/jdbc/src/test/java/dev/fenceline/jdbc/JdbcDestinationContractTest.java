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

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Runs the destination suite on a user-defined change: each applied change appends a row to a
 * business table {@code tck_report}, so the suite counts real applications.
 */
abstract class JdbcDestinationContractTest extends DestinationContract<JdbcChange> {

  private final OpenStore store = new OpenStore(this::database);

  abstract TestDatabase database();

  @BeforeEach
  void createBusinessTable() throws SQLException {
    try (Connection connection = database().connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS tck_report (resource VARCHAR(200) NOT NULL,"
              + " seq BIGINT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (resource, seq))");
    }
  }

  private JdbcStore store() {
    return store.get();
  }

  @Override
  protected Destination<JdbcChange> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return store.get(keys).destination(name, steps);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl
        .LOCKING; // one transaction holding the control row or the database write lock
  }

  @Override
  protected JdbcChange change(ResourceId resource, String payload) {
    return JdbcChange.fingerprinted(RequestFingerprint.sha256(payload), insert(resource, payload));
  }

  private static JdbcChange insert(ResourceId resource, String payload) {
    return (connection, token, operation) -> {
      try (PreparedStatement insert =
          connection.prepareStatement(
              "INSERT INTO tck_report (resource, seq, body) SELECT ?, COALESCE(MAX(seq), 0) + 1, ?"
                  + " FROM tck_report WHERE resource = ?")) {
        insert.setString(1, resource.value());
        insert.setString(2, payload);
        insert.setString(3, resource.value());
        return Map.of("rows", Integer.toString(insert.executeUpdate()));
      }
    };
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return query(
        "SELECT body FROM tck_report WHERE resource = ? ORDER BY seq DESC LIMIT 1",
        resource,
        rows -> rows.next() ? Optional.of(rows.getString(1)) : Optional.empty());
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return query(
        "SELECT COUNT(*) FROM tck_report WHERE resource = ?",
        resource,
        rows -> {
          rows.next();
          return rows.getLong(1);
        });
  }

  @Override
  protected LeaseIssuer issuer() {
    return store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store.restartDatabase();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private interface RowsReader<T> {
    T read(ResultSet rows) throws SQLException;
  }

  private <T> T query(String sql, ResourceId resource, RowsReader<T> reader) {
    try (Connection connection = database().connect();
        PreparedStatement select = connection.prepareStatement(sql)) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        return reader.read(rows);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
