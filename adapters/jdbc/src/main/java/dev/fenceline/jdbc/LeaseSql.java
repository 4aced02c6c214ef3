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

/**
 * The lease statements of {@link JdbcLeaseIssuer}, each a whole step in one statement, with the
 * parameters written as given: {@code ?} for a prepared statement on SQLite, the parameter names of
 * the server-side functions on PostgreSQL ({@link Schema#POSTGRES_FUNCTIONS}), numbered parameters
 * ({@code ?1}) on SQLite, so that a parameter can appear twice and every dialect binds the same
 * order.
 */
final class LeaseSql {

  private LeaseSql() {}

  /**
   * Takes the lease if nobody holds it (never held, released, or expired by the database's clock),
   * incrementing the epoch (1 for a new resource) in the same statement; returns the new epoch and
   * expiry, or no row if the lease is held.
   */
  static String acquire(Dialect dialect, String resource, String holder, String ttl) {
    String now = dialect.nowMillis;
    return "INSERT INTO fenceline_lease AS l (resource, epoch, holder, expires_at_ms)"
        + " VALUES ("
        + resource
        + ", 1, "
        + holder
        + ", "
        + now
        + " + "
        + ttl
        + ") ON CONFLICT (resource) DO UPDATE SET epoch = "
        + nextEpoch(dialect)
        + ","
        + " holder = excluded.holder, expires_at_ms = "
        + now
        + " + "
        + ttl
        + " WHERE l.holder IS NULL OR l.expires_at_ms <= "
        + now
        + " RETURNING epoch, expires_at_ms";
  }

  /**
   * The lease row's epoch plus one. SQLite turns an overflowing integer sum into a REAL that reads
   * back as the largest epoch again, which would hand that epoch out twice; there the sum at the
   * largest epoch is NULL instead, which the NOT NULL column refuses (PostgreSQL fails with "bigint
   * out of range" by itself).
   */
  private static String nextEpoch(Dialect dialect) {
    return dialect == Dialect.SQLITE
        ? "CASE WHEN l.epoch < " + Long.MAX_VALUE + " THEN l.epoch + 1 END"
        : "l.epoch + 1";
  }

  /**
   * Extends the lease if {@code holder} still holds {@code epoch} and it has not expired by the
   * database's clock; returns the new expiry, or no row.
   */
  static String renew(Dialect dialect, String resource, String epoch, String holder, String ttl) {
    String now = dialect.nowMillis;
    return "UPDATE fenceline_lease SET expires_at_ms = "
        + now
        + " + "
        + ttl
        + " WHERE resource = "
        + resource
        + " AND epoch = "
        + epoch
        + " AND holder = "
        + holder
        + " AND expires_at_ms > "
        + now
        + " RETURNING expires_at_ms";
  }

  /**
   * The refusal every PostgreSQL lease statement carries in its {@code WHERE}: nothing changes on a
   * schema newer than this build's (parameter: {@link Schema#VERSION}).
   */
  private static final String SCHEMA_NOT_NEWER = "(" + Schema.CURRENT_VERSION + ") <= ?";

  /**
   * PostgreSQL: {@code change} (a statement with {@code RETURNING}) wrapped so that it always
   * answers one row: what it returned (NULLs if it changed nothing), then the schema version, so an
   * empty answer is told apart from a refusal on a newer schema in the same round trip.
   */
  private static String answeringOneRow(String change, String returned) {
    return "WITH a AS ("
        + change
        + ") SELECT "
        + returned
        + ", ("
        + Schema.CURRENT_VERSION
        + ") FROM (SELECT 1) k LEFT JOIN a ON true";
  }

  /**
   * PostgreSQL: {@link #acquire} as one plain statement (no server-side function) that changes
   * nothing on a newer schema. Parameters: resource, holder, ttl in milliseconds, this build's
   * schema version. Answers one row: the epoch and expiry (NULLs if the lease is held), the schema
   * version. The expiry of a taken lease is computed before the statement waits for the row's lock,
   * so a wait only shortens the lease it returns.
   */
  static String acquirePostgres() {
    String now = Dialect.POSTGRESQL.nowMillis;
    return answeringOneRow(
        "INSERT INTO fenceline_lease AS l (resource, epoch, holder, expires_at_ms)"
            + " SELECT ?, 1, ?, "
            + now
            + " + ? WHERE "
            + SCHEMA_NOT_NEWER
            + " ON CONFLICT (resource) DO UPDATE SET epoch = l.epoch + 1,"
            + " holder = excluded.holder, expires_at_ms = excluded.expires_at_ms"
            + " WHERE l.holder IS NULL OR l.expires_at_ms <= "
            + now
            + " RETURNING epoch, expires_at_ms",
        "a.epoch, a.expires_at_ms");
  }

  /**
   * PostgreSQL: {@link #renew} as one plain statement that changes nothing on a newer schema.
   * Parameters: ttl in milliseconds, resource, epoch, holder, this build's schema version. Answers
   * one row: the new expiry (NULL if not renewed), the schema version.
   */
  static String renewPostgres() {
    String now = Dialect.POSTGRESQL.nowMillis;
    return answeringOneRow(
        "UPDATE fenceline_lease SET expires_at_ms = "
            + now
            + " + ? WHERE resource = ? AND epoch = ? AND holder = ? AND expires_at_ms > "
            + now
            + " AND "
            + SCHEMA_NOT_NEWER
            + " RETURNING expires_at_ms",
        "a.expires_at_ms");
  }

  /**
   * PostgreSQL: {@link #release} as one plain statement that changes nothing on a newer schema.
   * Parameters: resource, epoch, holder, this build's schema version. Answers one row: the epoch
   * (NULL if not released), the schema version.
   */
  static String releasePostgres() {
    return answeringOneRow(
        release("?", "?", "?") + " AND " + SCHEMA_NOT_NEWER + " RETURNING epoch", "a.epoch");
  }

  /** Releases the lease if {@code holder} still holds {@code epoch} (expired or not). */
  static String release(String resource, String epoch, String holder) {
    return "UPDATE fenceline_lease SET holder = NULL, expires_at_ms = 0 WHERE resource = "
        + resource
        + " AND epoch = "
        + epoch
        + " AND holder = "
        + holder;
  }
}
