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

import dev.fenceline.spi.ConfigurationException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fenceline's tables, the same SQL on SQLite and PostgreSQL. Times are milliseconds since 1970 by
 * the database's clock. A DBA who creates them by hand runs {@link #TABLES}, inserts version
 * {@value #VERSION} into {@code fenceline_schema} and one identity ({@code jdbc-} and a random
 * UUID) into {@code fenceline_issuer}; on PostgreSQL also {@link #POSTGRES_FUNCTIONS}.
 *
 * <p>Version 2 scopes operation records and publish pointers per destination name and records a
 * request fingerprint with each operation and the issuer with each control row. A version 1
 * database is migrated when a store opens it: operations that set a publish pointer go to the
 * pointer store named {@value JdbcStore#SCHEMA_1_POINTER_STORE}, the others to the destination
 * named {@value JdbcStore#SCHEMA_1_DESTINATION}; their fingerprints are unknown (a retry is not
 * compared), and each resource's issuer is recorded by its next registration.
 *
 * <p>Version 3 adds {@code fenceline_intent}: the intents of {@link JdbcIntentStore}s (one row per
 * destination name, resource and operation, with the request fingerprint, the epoch of the newest
 * attempt, the number of attempts, and the receipt's epoch, time and attributes once completed; the
 * receipt columns are NULL until then). Intent receipts stay in this table, apart from {@code
 * fenceline_operation}, so a destination and an intent store never compete for one operation
 * record. A version 2 database is migrated in place when a store opens it: the table is created and
 * the version set to 3 in one transaction; no existing row is read or rewritten, so the step is
 * short. A version 1 database goes through version 2 first.
 *
 * <p>Version 4 adds, on PostgreSQL, the server-side functions {@link #POSTGRES_FUNCTIONS} that make
 * each fenced step one round trip (SQLite needs none); see "Functions" below for how a store
 * installs and upgrades them. On both databases it adds {@code fenceline_pruned}, the receipt
 * watermark of {@link Retention}: one row per destination name and resource whose operation records
 * were pruned, holding the time before which they were ({@code pruned_before_ms}), so a lookup of a
 * pruned receipt answers "unknown" instead of "never applied". It is written in the same
 * transaction as the deletes and holds at most one row per destination and resource. It also adds
 * the index {@code fenceline_operation_recorded_at} on {@code fenceline_operation
 * (recorded_at_ms)}, so pruning finds old records without reading the whole table. A version 3
 * database is migrated in place when a store opens it (table, index and functions created, version
 * set to 4, in one transaction); building the index reads {@code fenceline_operation} once.
 * Versions 1 and 2 go through version 3 first.
 *
 * <p>Version 5 keeps the receipt of a pointer publish in the pointer version's row instead of a row
 * of its own in {@code fenceline_operation}: {@code fenceline_pointer} gains {@code
 * recorded_at_ms}, {@code receipt_attributes} and {@code fingerprint} (NULL once the receipt is
 * pruned) and {@code retired} (1 once history pruning took the version out of the history while its
 * receipt is still kept: the row stays, out of {@code history}, until the receipt is pruned), the
 * unique index {@code fenceline_pointer_receipt} on {@code (destination, resource, operation)} over
 * the rows that hold a receipt (an operation has at most one kept receipt, also between concurrent
 * publishes), and {@code fenceline_pointer_recorded_at} for pruning. A publish writes two rows (the
 * control row and the version) instead of three, and a receipt never moves between tables, so a
 * statement that reads from an older snapshot still finds it, or the unique index refuses its
 * duplicate. Every receipt lookup reads both tables: {@code fenceline_operation} keeps the receipts
 * of destinations, and those of pointer versions that history pruning had deleted before the
 * migration. A version 4 database is migrated in place when a store opens it (columns and indexes
 * added, the receipt of each kept version moved into its row, version set to 5, in one
 * transaction); it reads {@code fenceline_pointer} and {@code fenceline_operation} once. The
 * functions become version 3 (same names and parameters). Versions 1 to 3 go through version 4
 * first.
 *
 * <p>For DBAs upgrading a running system: a process of an older Fenceline that opens the database
 * after the migration refuses it (e.g. "schema is version 4, newer than version 3"). Processes of
 * version 3 that opened it before keep working, but they never read the receipt watermark: after a
 * prune they answer "never applied" for a pruned receipt, so stop or upgrade them before the first
 * prune. Processes of this build re-check the version in every lookup, step and prune batch ({@link
 * #refuseNewer}; on PostgreSQL inside the functions, which get the caller's version as a
 * parameter), and refuse once a newer Fenceline has migrated the database. Upgrade every process
 * that opens stores before, or together with, the first one that migrates.
 *
 * <p>Functions (PostgreSQL). Each body starts with the line {@code -- fenceline functions version
 * N} ({@link #FUNCTIONS_VERSION}), and the names carry the suffix {@code _v2} ({@code
 * fenceline_begin_v2}, ...). When a store opens, in the migration's transaction (under the
 * migration's advisory lock): if any of these functions in the database has a newer version than
 * this build's, the store refuses to open (this build would downgrade them for every process, and a
 * newer build may rely on its bodies); if any is missing, older, or has another body than this
 * build's text of the same version, all five are replaced with this build's; otherwise nothing is
 * written. So a fix to a body reaches every process, including those already open, as soon as the
 * first process of the fixed build opens the database, and never goes back. Builds before versioned
 * functions created and replaced the unversioned names ({@code fenceline_begin}, ...) on every
 * open, last opener wins; this build never calls those names and leaves them alone (only such
 * builds call them: drop them once none runs), so such a build cannot change what this build runs.
 * A change to a body keeps its parameters and result columns and raises {@link #FUNCTIONS_VERSION}
 * (its text per version is pinned by a test); a change of parameters or result columns needs new
 * names (another suffix), because {@code CREATE OR REPLACE} cannot change them and open stores of
 * older builds still call the old ones. A status a body answers that this build does not know (a
 * newer body's) is reported as an unknown outcome when the statement carried its commit.
 */
final class Schema {

  /** The schema version this code creates and understands. */
  static final int VERSION = 5;

  /**
   * The version of this build's {@link #POSTGRES_FUNCTIONS} bodies, recorded in each body's first
   * line. 1 was the unversioned bodies under the names without a suffix.
   */
  static final int FUNCTIONS_VERSION = 3;

  /** The first line of every function body of this build. */
  private static final String VERSION_LINE =
      "-- fenceline functions version " + FUNCTIONS_VERSION + "\n";

  private static final Pattern VERSION_LINE_PATTERN =
      Pattern.compile("\\A\\s*-- fenceline functions version (\\d+)\\s*\\n");

  /** The SQLSTATE of a refusal to run against a newer schema (see {@link #refuseNewer}). */
  static final String NEWER_SCHEMA_STATE = "FL001";

  /** The name of the control-row step function (see {@link #POSTGRES_FUNCTIONS}). */
  static final String BEGIN = "fenceline_begin_v2";

  /** The name of the pointer publish function. */
  static final String PUBLISH_POINTER = "fenceline_publish_pointer_v2";

  /** The name of the lease acquire function. */
  static final String ACQUIRE = "fenceline_acquire_v2";

  /** The name of the lease renew function. */
  static final String RENEW = "fenceline_renew_v2";

  /** The name of the lease release function. */
  static final String RELEASE = "fenceline_release_v2";

  private static final String OPERATION_COLUMNS =
      " destination VARCHAR(64) NOT NULL,"
          + " resource VARCHAR(200) NOT NULL,"
          + " operation VARCHAR(200) NOT NULL,"
          + " epoch BIGINT NOT NULL,"
          + " recorded_at_ms BIGINT NOT NULL,"
          + " attributes TEXT NOT NULL,"
          + " fingerprint VARCHAR(80),"
          + " PRIMARY KEY (destination, resource, operation))";

  private static final String POINTER_VERSION_COLUMNS =
      " destination VARCHAR(64) NOT NULL,"
          + " resource VARCHAR(200) NOT NULL,"
          + " version BIGINT NOT NULL,"
          + " target TEXT NOT NULL,"
          + " attributes TEXT NOT NULL,"
          + " epoch BIGINT NOT NULL,"
          + " operation VARCHAR(200) NOT NULL,";

  private static final String POINTER_KEY = " PRIMARY KEY (destination, resource, version))";

  /** The pointer table of versions 2 to 4 (version 1's is migrated to it). */
  private static final String POINTER_COLUMNS = POINTER_VERSION_COLUMNS + POINTER_KEY;

  /**
   * Version 5: the receipt of the operation that wrote a pointer version, in the version's row
   * (NULL once pruned, or for a row whose receipt stayed in {@code fenceline_operation}); and
   * {@code retired}, 1 once history pruning took the version out of the history while its receipt
   * is still kept (the row is deleted when the receipt is pruned).
   */
  private static final List<String> POINTER_RECEIPT_COLUMNS =
      List.of(
          "recorded_at_ms BIGINT",
          "receipt_attributes TEXT",
          "fingerprint VARCHAR(80)",
          "retired SMALLINT DEFAULT 0 NOT NULL");

  /**
   * Version 5: an operation has at most one kept receipt per pointer store and resource, also
   * between two publishes that committed while each other's statement ran.
   */
  private static final String POINTER_RECEIPT_INDEX =
      "CREATE UNIQUE INDEX IF NOT EXISTS fenceline_pointer_receipt"
          + " ON fenceline_pointer (destination, resource, operation)"
          + " WHERE recorded_at_ms IS NOT NULL";

  /** Version 5: the index pruning finds old pointer receipts by. */
  private static final String POINTER_RECORDED_AT_INDEX =
      "CREATE INDEX IF NOT EXISTS fenceline_pointer_recorded_at"
          + " ON fenceline_pointer (recorded_at_ms) WHERE recorded_at_ms IS NOT NULL";

  private static final String INTENT_COLUMNS =
      " destination VARCHAR(64) NOT NULL,"
          + " resource VARCHAR(200) NOT NULL,"
          + " operation VARCHAR(200) NOT NULL,"
          + " fingerprint VARCHAR(80) NOT NULL,"
          + " epoch BIGINT NOT NULL,"
          + " attempts INTEGER NOT NULL,"
          + " recorded_at_ms BIGINT NOT NULL,"
          + " receipt_epoch BIGINT,"
          + " receipt_recorded_at_ms BIGINT,"
          + " receipt_attributes TEXT,"
          + " PRIMARY KEY (destination, resource, operation))";

  private static final String PRUNED_TABLE =
      "CREATE TABLE IF NOT EXISTS fenceline_pruned ("
          + " destination VARCHAR(64) NOT NULL,"
          + " resource VARCHAR(200) NOT NULL,"
          + " pruned_before_ms BIGINT NOT NULL,"
          + " PRIMARY KEY (destination, resource))";

  private static final String RECORDED_AT_INDEX =
      "CREATE INDEX IF NOT EXISTS fenceline_operation_recorded_at"
          + " ON fenceline_operation (recorded_at_ms)";

  /** The DDL of version {@value #VERSION}. */
  static final List<String> TABLES =
      List.of(
          "CREATE TABLE IF NOT EXISTS fenceline_schema (version INTEGER NOT NULL)",
          // The identity of this database's epoch sequence, carried in every token it issues.
          "CREATE TABLE IF NOT EXISTS fenceline_issuer (id VARCHAR(100) NOT NULL)",
          // The issuer: the newest epoch handed out per resource, and its lease.
          "CREATE TABLE IF NOT EXISTS fenceline_lease ("
              + " resource VARCHAR(200) PRIMARY KEY,"
              + " epoch BIGINT NOT NULL,"
              + " holder VARCHAR(200),"
              + " expires_at_ms BIGINT NOT NULL)",
          // The destination's control row: the newest epoch registered per resource, and the
          // issuer whose tokens registered it (NULL until the first registration).
          "CREATE TABLE IF NOT EXISTS fenceline_resource ("
              + " resource VARCHAR(200) PRIMARY KEY,"
              + " epoch BIGINT NOT NULL,"
              + " issuer VARCHAR(100))",
          // Applied operations per destination, their receipts and request fingerprints.
          "CREATE TABLE IF NOT EXISTS fenceline_operation (" + OPERATION_COLUMNS,
          // Every swap of a publish pointer (or published value) per destination and resource;
          // the row with the highest version is the current pointer, older rows are the history.
          // Each row also holds the receipt of the operation that wrote it (version 5).
          "CREATE TABLE IF NOT EXISTS fenceline_pointer ("
              + POINTER_VERSION_COLUMNS
              + " "
              + String.join(", ", POINTER_RECEIPT_COLUMNS)
              + ","
              + POINTER_KEY,
          // Intents of calls to systems that cannot check epochs, per destination name (version
          // 3); the receipt columns are NULL until the call's result is recorded.
          "CREATE TABLE IF NOT EXISTS fenceline_intent (" + INTENT_COLUMNS,
          // Receipt retention (version 4): per destination and resource, the time before which
          // operation records were pruned; and the index pruning finds old records by.
          PRUNED_TABLE,
          RECORDED_AT_INDEX,
          // Receipts in pointer rows (version 5): one per operation, and found by age.
          POINTER_RECEIPT_INDEX,
          POINTER_RECORDED_AT_INDEX);

  /**
   * The first statements of every function body: refuse, with nothing changed, to run for a caller
   * that understands an older schema version ({@code p_schema_version}) than the database's: a
   * newer Fenceline migrated the database after the caller's store opened. The caller's version is
   * a parameter, not a constant of the body, because a newer build replaces the bodies under the
   * stores of older builds that are still open.
   */
  private static final String SCHEMA_CHECK =
      "  SELECT MAX(s.version) INTO v_schema FROM fenceline_schema s;\n"
          + "  IF v_schema > p_schema_version THEN\n"
          + "    RAISE EXCEPTION USING ERRCODE = '"
          + NEWER_SCHEMA_STATE
          + "', MESSAGE = 'the database''s Fenceline schema is version ' || v_schema\n"
          + "      || ', newer than version ' || p_schema_version || ' that this Fenceline"
          + " understands: a newer Fenceline migrated it after this store opened (upgrade this"
          + " process)';\n"
          + "  END IF;\n";

  /** What {@code fenceline_begin_v2} and {@code fenceline_publish_pointer_v2} return (one row). */
  private static final String STEP_COLUMNS =
      "o_status VARCHAR, o_epoch BIGINT, o_issuer VARCHAR, o_now_ms BIGINT, o_rec_epoch BIGINT,"
          + " o_rec_at_ms BIGINT, o_rec_attributes TEXT, o_rec_fingerprint VARCHAR";

  /**
   * PostgreSQL only (version 4): the server-side functions that make each of Fenceline's fenced
   * steps one round trip. {@code fenceline_begin_v2} is the first statement of every fenced
   * transaction: it sets the transaction's lock (and statement) timeout, locks the resource's
   * control row (creating it at epoch 0 if missing), refuses a token of another issuer ({@code
   * foreign}) or an older epoch ({@code stale}), finds the operation's record ({@code conflict} if
   * its request fingerprint differs, {@code replay} if found), and registers the token's epoch and
   * issuer if newer (not for {@code foreign}, {@code stale} or {@code conflict}, which change
   * nothing). It returns the control row as it was before, the database's clock and the record.
   * {@code fenceline_publish_pointer_v2} is a whole pointer publish in one statement: {@code
   * fenceline_begin_v2}, then, for {@code proceed}, the new pointer version and the operation
   * record ({@code applied}). The lease functions run one statement each after setting the lock
   * timeout.
   */
  static final List<String> POSTGRES_FUNCTIONS =
      List.of(
          "CREATE OR REPLACE FUNCTION "
              + BEGIN
              + "("
              + " p_destination VARCHAR, p_resource VARCHAR, p_operation VARCHAR, p_epoch BIGINT,"
              + " p_issuer VARCHAR, p_fingerprint VARCHAR, p_register BOOLEAN,"
              + " p_lock_timeout VARCHAR, p_statement_timeout VARCHAR, p_schema_version INTEGER)"
              + " RETURNS TABLE ("
              + STEP_COLUMNS
              + ") LANGUAGE plpgsql AS $$\n"
              + VERSION_LINE
              + "DECLARE v_found BOOLEAN := false; v_schema INTEGER;\n"
              + "BEGIN\n"
              + SCHEMA_CHECK
              + "  IF p_statement_timeout IS NOT NULL THEN\n"
              + "    PERFORM set_config('statement_timeout', p_statement_timeout, true);\n"
              + "  END IF;\n"
              + controlRowStep("p_register")
              + "  RETURN NEXT;\n"
              + "END $$",
          // The control-row step inlined rather than called: one PL/pgSQL frame per publish.
          "CREATE OR REPLACE FUNCTION "
              + PUBLISH_POINTER
              + "("
              + " p_destination VARCHAR, p_resource VARCHAR, p_operation VARCHAR, p_epoch BIGINT,"
              + " p_issuer VARCHAR, p_fingerprint VARCHAR, p_lock_timeout VARCHAR,"
              + " p_target TEXT, p_pointer_attributes TEXT, p_receipt_attributes TEXT,"
              + " p_schema_version INTEGER)"
              + " RETURNS TABLE ("
              + STEP_COLUMNS
              + ", o_version BIGINT) LANGUAGE plpgsql AS $$\n"
              + VERSION_LINE
              + "DECLARE v_found BOOLEAN := false; v_schema INTEGER;\n"
              + "BEGIN\n"
              + SCHEMA_CHECK
              + controlRowStep("true")
              + "  IF o_status = 'proceed' THEN\n"
              + "    SELECT COALESCE(MAX(p.version), 0) + 1 INTO o_version FROM fenceline_pointer p\n"
              + "      WHERE p.destination = p_destination AND p.resource = p_resource;\n"
              + "    INSERT INTO fenceline_pointer (destination, resource, version, target,\n"
              + "      attributes, epoch, operation, recorded_at_ms, receipt_attributes, fingerprint)\n"
              + "      VALUES (p_destination, p_resource, o_version, p_target, p_pointer_attributes,\n"
              + "      p_epoch, p_operation, o_now_ms, p_receipt_attributes, p_fingerprint);\n"
              + "    o_status := 'applied';\n"
              + "  END IF;\n"
              + "  RETURN NEXT;\n"
              + "END $$",
          "CREATE OR REPLACE FUNCTION "
              + ACQUIRE
              + "("
              + " p_resource VARCHAR, p_holder VARCHAR, p_ttl_ms BIGINT, p_lock_timeout VARCHAR,"
              + " p_schema_version INTEGER)"
              + " RETURNS TABLE (o_epoch BIGINT, o_expires_at_ms BIGINT)"
              + " LANGUAGE plpgsql AS $$\n"
              + VERSION_LINE
              + "DECLARE v_schema INTEGER;\n"
              + "BEGIN\n"
              + SCHEMA_CHECK
              + "  PERFORM set_config('lock_timeout', p_lock_timeout, true);\n"
              + "  RETURN QUERY "
              + LeaseSql.acquire(Dialect.POSTGRESQL, "p_resource", "p_holder", "p_ttl_ms")
              + ";\n"
              + "END $$",
          "CREATE OR REPLACE FUNCTION "
              + RENEW
              + "("
              + " p_resource VARCHAR, p_epoch BIGINT, p_holder VARCHAR, p_ttl_ms BIGINT,"
              + " p_lock_timeout VARCHAR, p_schema_version INTEGER)"
              + " RETURNS TABLE (o_expires_at_ms BIGINT)"
              + " LANGUAGE plpgsql AS $$\n"
              + VERSION_LINE
              + "DECLARE v_schema INTEGER;\n"
              + "BEGIN\n"
              + SCHEMA_CHECK
              + "  PERFORM set_config('lock_timeout', p_lock_timeout, true);\n"
              + "  RETURN QUERY "
              + LeaseSql.renew(Dialect.POSTGRESQL, "p_resource", "p_epoch", "p_holder", "p_ttl_ms")
              + ";\n"
              + "END $$",
          "CREATE OR REPLACE FUNCTION "
              + RELEASE
              + "("
              + " p_resource VARCHAR, p_epoch BIGINT, p_holder VARCHAR, p_lock_timeout VARCHAR,"
              + " p_schema_version INTEGER)"
              + " RETURNS BOOLEAN LANGUAGE plpgsql AS $$\n"
              + VERSION_LINE
              + "DECLARE v_schema INTEGER;\n"
              + "BEGIN\n"
              + SCHEMA_CHECK
              + "  PERFORM set_config('lock_timeout', p_lock_timeout, true);\n"
              + "  "
              + LeaseSql.release("p_resource", "p_epoch", "p_holder")
              + ";\n"
              + "  RETURN FOUND;\n"
              + "END $$");

  /**
   * The PL/pgSQL body of the control-row step shared by {@code fenceline_begin_v2} and {@code
   * fenceline_publish_pointer_v2}: sets the lock timeout, locks (creating at epoch 0) the control
   * row, and answers {@code foreign}, {@code stale} or {@code conflict} (returning at once, nothing
   * changed) or registers the epoch if {@code register} and newer, then sets {@code replay} or
   * {@code proceed}. Declares nothing; the function declares {@code v_found BOOLEAN := false}.
   */
  private static String controlRowStep(String register) {
    return "  PERFORM set_config('lock_timeout', p_lock_timeout, true);\n"
        + "  SELECT r.epoch, r.issuer INTO o_epoch, o_issuer FROM fenceline_resource r\n"
        + "    WHERE r.resource = p_resource FOR UPDATE;\n"
        + "  IF NOT FOUND THEN\n"
        + "    INSERT INTO fenceline_resource (resource, epoch) VALUES (p_resource, 0)\n"
        + "      ON CONFLICT (resource) DO NOTHING;\n"
        + "    SELECT r.epoch, r.issuer INTO STRICT o_epoch, o_issuer FROM fenceline_resource r\n"
        + "      WHERE r.resource = p_resource FOR UPDATE;\n"
        + "  END IF;\n"
        + "  o_now_ms := "
        + Dialect.POSTGRESQL.nowMillis
        + ";\n"
        + "  IF o_issuer IS NOT NULL AND o_issuer <> p_issuer THEN\n"
        + "    o_status := 'foreign'; RETURN NEXT; RETURN;\n"
        + "  END IF;\n"
        + "  IF p_epoch < o_epoch THEN\n"
        + "    o_status := 'stale'; RETURN NEXT; RETURN;\n"
        + "  END IF;\n"
        + "  IF p_operation IS NOT NULL THEN\n"
        + "    SELECT o.epoch, o.recorded_at_ms, o.attributes, o.fingerprint\n"
        + "      INTO o_rec_epoch, o_rec_at_ms, o_rec_attributes, o_rec_fingerprint\n"
        + "      FROM fenceline_operation o WHERE o.destination = p_destination\n"
        + "      AND o.resource = p_resource AND o.operation = p_operation;\n"
        + "    v_found := FOUND;\n"
        + "    IF NOT v_found THEN\n"
        + "      SELECT q.epoch, q.recorded_at_ms, q.receipt_attributes, q.fingerprint\n"
        + "        INTO o_rec_epoch, o_rec_at_ms, o_rec_attributes, o_rec_fingerprint\n"
        + "        FROM fenceline_pointer q WHERE q.destination = p_destination\n"
        + "        AND q.resource = p_resource AND q.operation = p_operation\n"
        + "        AND q.recorded_at_ms IS NOT NULL;\n"
        + "      v_found := FOUND;\n"
        + "    END IF;\n"
        + "    IF v_found AND p_fingerprint IS NOT NULL AND o_rec_fingerprint IS NOT NULL\n"
        + "        AND p_fingerprint <> o_rec_fingerprint THEN\n"
        + "      o_status := 'conflict'; RETURN NEXT; RETURN;\n"
        + "    END IF;\n"
        + "  END IF;\n"
        + "  IF "
        + register
        + " AND (p_epoch > o_epoch OR o_issuer IS NULL) THEN\n"
        + "    UPDATE fenceline_resource SET epoch = p_epoch, issuer = p_issuer\n"
        + "      WHERE resource = p_resource;\n"
        + "  END IF;\n"
        + "  o_status := CASE WHEN v_found THEN 'replay' ELSE 'proceed' END;\n";
  }

  /** The names of {@link #POSTGRES_FUNCTIONS}, in their order. */
  private static final List<String> POSTGRES_FUNCTION_NAMES =
      List.of(BEGIN, PUBLISH_POINTER, ACQUIRE, RENEW, RELEASE);

  private Schema() {}

  /**
   * Creates missing tables or migrates an older version, inside the caller's transaction.
   *
   * @return the database's issuer identity
   */
  static String migrate(Connection connection, Dialect dialect) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      if (dialect == Dialect.POSTGRESQL) {
        // Concurrent first starts would race on CREATE TABLE IF NOT EXISTS; serialize them.
        statement.execute("SELECT pg_advisory_xact_lock(7438170203)");
      }
      statement.execute(TABLES.get(0));
      Integer stored = null;
      try (ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM fenceline_schema")) {
        if (rows.next()) {
          int version = rows.getInt(1);
          stored = rows.wasNull() ? null : version;
        }
      }
      if (stored == null) {
        for (String ddl : TABLES) {
          statement.execute(ddl);
        }
        statement.execute("INSERT INTO fenceline_schema (version) VALUES (" + VERSION + ")");
      } else if (stored > VERSION) {
        throw new ConfigurationException(
            "Cannot use this database: its Fenceline schema is version "
                + stored
                + ", newer than version "
                + VERSION
                + " that this Fenceline understands (upgrade Fenceline)");
      } else {
        if (stored == 1) {
          migrateFromVersion1(statement);
        }
        if (stored <= 2) {
          migrateFromVersion2(statement);
        }
        if (stored <= 3) {
          migrateFromVersion3(statement);
        }
        if (stored <= 4) {
          migrateFromVersion4(statement);
        }
      }
      if (dialect == Dialect.POSTGRESQL && functionsOutdated(connection)) {
        // New tables, tables created by hand without the functions, or functions of an older
        // version (a fixed body must reach databases already at version 4): replace them.
        for (String function : POSTGRES_FUNCTIONS) {
          statement.execute(function);
        }
      }
      return issuerIdentity(connection);
    }
  }

  private static void migrateFromVersion1(Statement statement) throws SQLException {
    statement.execute("ALTER TABLE fenceline_resource ADD COLUMN issuer VARCHAR(100)");
    statement.execute("CREATE TABLE fenceline_issuer (id VARCHAR(100) NOT NULL)");
    statement.execute("CREATE TABLE fenceline_operation_v2 (" + OPERATION_COLUMNS);
    statement.execute(
        "INSERT INTO fenceline_operation_v2"
            + " (destination, resource, operation, epoch, recorded_at_ms, attributes, fingerprint)"
            + " SELECT CASE WHEN EXISTS (SELECT 1 FROM fenceline_pointer p"
            + " WHERE p.resource = o.resource AND p.operation = o.operation)"
            + " THEN '"
            + JdbcStore.SCHEMA_1_POINTER_STORE
            + "' ELSE '"
            + JdbcStore.SCHEMA_1_DESTINATION
            + "' END, o.resource, o.operation, o.epoch, o.recorded_at_ms, o.attributes, NULL"
            + " FROM fenceline_operation o");
    statement.execute("DROP TABLE fenceline_operation");
    statement.execute("ALTER TABLE fenceline_operation_v2 RENAME TO fenceline_operation");
    statement.execute("CREATE TABLE fenceline_pointer_v2 (" + POINTER_COLUMNS);
    statement.execute(
        "INSERT INTO fenceline_pointer_v2"
            + " (destination, resource, version, target, attributes, epoch, operation)"
            + " SELECT '"
            + JdbcStore.SCHEMA_1_POINTER_STORE
            + "', resource, version, target, attributes, epoch, operation FROM fenceline_pointer");
    statement.execute("DROP TABLE fenceline_pointer");
    statement.execute("ALTER TABLE fenceline_pointer_v2 RENAME TO fenceline_pointer");
    statement.execute("UPDATE fenceline_schema SET version = 2");
  }

  private static void migrateFromVersion2(Statement statement) throws SQLException {
    statement.execute("CREATE TABLE fenceline_intent (" + INTENT_COLUMNS);
    statement.execute("UPDATE fenceline_schema SET version = 3");
  }

  private static void migrateFromVersion3(Statement statement) throws SQLException {
    statement.execute(PRUNED_TABLE);
    statement.execute(RECORDED_AT_INDEX);
    statement.execute("UPDATE fenceline_schema SET version = 4");
  }

  /**
   * Moves the receipt of each kept pointer version from {@code fenceline_operation} into the
   * version's row: the newest version an operation wrote, if the record has the version's epoch.
   * Receipts of versions pruned before stay where they are (every lookup reads both tables).
   */
  private static void migrateFromVersion4(Statement statement) throws SQLException {
    for (String column : POINTER_RECEIPT_COLUMNS) {
      statement.execute("ALTER TABLE fenceline_pointer ADD COLUMN " + column);
    }
    statement.execute(
        "UPDATE fenceline_pointer SET (recorded_at_ms, receipt_attributes, fingerprint) ="
            + " (SELECT o.recorded_at_ms, o.attributes, o.fingerprint FROM fenceline_operation o"
            + " WHERE o.destination = fenceline_pointer.destination"
            + " AND o.resource = fenceline_pointer.resource"
            + " AND o.operation = fenceline_pointer.operation AND o.epoch = fenceline_pointer.epoch)"
            + " WHERE (destination, resource, operation, version) IN"
            + " (SELECT p.destination, p.resource, p.operation, MAX(p.version)"
            + " FROM fenceline_pointer p JOIN fenceline_operation o"
            + " ON o.destination = p.destination AND o.resource = p.resource"
            + " AND o.operation = p.operation AND o.epoch = p.epoch"
            + " GROUP BY p.destination, p.resource, p.operation)");
    statement.execute(POINTER_RECEIPT_INDEX);
    statement.execute(POINTER_RECORDED_AT_INDEX);
    statement.execute(
        "DELETE FROM fenceline_operation WHERE EXISTS (SELECT 1 FROM fenceline_pointer p"
            + " WHERE p.destination = fenceline_operation.destination"
            + " AND p.resource = fenceline_operation.resource"
            + " AND p.operation = fenceline_operation.operation AND p.recorded_at_ms IS NOT NULL)");
    statement.execute("UPDATE fenceline_schema SET version = 5");
  }

  /**
   * Whether one of {@link #POSTGRES_FUNCTIONS} is missing, of an older version, or has another body
   * than this build's text of its version; refuses the database if one is of a newer version.
   *
   * @throws ConfigurationException if the database holds a newer version of the functions
   */
  private static boolean functionsOutdated(Connection connection) throws SQLException {
    Map<String, String> bodies = new HashMap<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT proname, prosrc FROM pg_proc"
                + " WHERE proname = ANY (?) AND pg_function_is_visible(oid)")) {
      select.setArray(1, connection.createArrayOf("varchar", POSTGRES_FUNCTION_NAMES.toArray()));
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          bodies.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    int newest = 0;
    String newestName = null;
    for (String name : POSTGRES_FUNCTION_NAMES) {
      int version = bodies.containsKey(name) ? functionsVersion(bodies.get(name)) : 0;
      if (version > newest) {
        newest = version;
        newestName = name;
      }
    }
    if (newest > FUNCTIONS_VERSION) {
      throw new ConfigurationException(
          "Cannot use this database: its Fenceline functions are version "
              + newest
              + " ("
              + newestName
              + "), newer than version "
              + FUNCTIONS_VERSION
              + " of this Fenceline, which would replace them with older bodies for every process"
              + " (upgrade this process to a Fenceline whose functions are version "
              + newest
              + " or later, the one that installed them)");
    }
    for (int i = 0; i < POSTGRES_FUNCTIONS.size(); i++) {
      if (!body(POSTGRES_FUNCTIONS.get(i)).equals(bodies.get(POSTGRES_FUNCTION_NAMES.get(i)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses, with {@link #NEWER_SCHEMA_STATE}, a database whose schema version ({@code stored},
   * read in the caller's statement or transaction) is newer than {@link #VERSION}: a newer
   * Fenceline migrated it after this store opened, and this build may read or write it wrongly (a
   * process of version 3 never read the receipt watermark of version 4, and answered "never
   * applied" for a pruned receipt).
   */
  static void refuseNewer(int stored) throws SQLException {
    if (stored > VERSION) {
      throw new SQLException(
          "the database's Fenceline schema is version "
              + stored
              + ", newer than version "
              + VERSION
              + " that this Fenceline understands: a newer Fenceline migrated it after this store"
              + " opened (upgrade this process)",
          NEWER_SCHEMA_STATE);
    }
  }

  /** {@link #refuseNewer} with the version read by one statement in the caller's transaction. */
  static void checkVersion(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(CURRENT_VERSION)) {
      rows.next();
      refuseNewer(rows.getInt(1));
    }
  }

  /** The database's schema version, as a scalar subquery or a statement of its own. */
  static final String CURRENT_VERSION = "SELECT MAX(version) FROM fenceline_schema";

  /** The body of a function's DDL, as {@code pg_proc.prosrc} holds it. */
  static String body(String ddl) {
    return ddl.substring(ddl.indexOf("$$") + 2, ddl.lastIndexOf("$$"));
  }

  /** The version a function body records in its first line, or 0 if it records none. */
  static int functionsVersion(String body) {
    Matcher matcher = VERSION_LINE_PATTERN.matcher(body);
    if (!matcher.find()) {
      return 0;
    }
    try {
      return Integer.parseInt(matcher.group(1));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE; // more digits than an int: newer than anything this build knows
    }
  }

  private static String issuerIdentity(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT id FROM fenceline_issuer")) {
      if (rows.next()) {
        return rows.getString(1);
      }
    }
    String id = "jdbc-" + UUID.randomUUID();
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO fenceline_issuer (id) VALUES (?)")) {
      insert.setString(1, id);
      insert.executeUpdate();
    }
    return id;
  }
}
