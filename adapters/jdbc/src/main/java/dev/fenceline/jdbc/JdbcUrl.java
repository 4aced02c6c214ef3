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

import dev.fenceline.jdbc.Transactions.ConnectionSource;
import dev.fenceline.spi.ConfigurationException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * A JDBC URL a {@link JdbcStore} connects with ({@code jdbc:sqlite:} or {@code jdbc:postgresql:}),
 * and what the store reads from it: the name shown in messages (without the query, which may hold
 * credentials), the SQLite file it names, and the settings its query makes itself, which win over
 * the builder's. No {@code toString}: the URL may carry a password.
 */
final class JdbcUrl {

  static final String SQLITE_PREFIX = "jdbc:sqlite:";
  static final String POSTGRESQL_PREFIX = "jdbc:postgresql:";

  private final String value;

  /**
   * @throws ConfigurationException if {@code value} is not a SQLite or PostgreSQL URL
   */
  JdbcUrl(String value) {
    requireNonNull(value, "url is null");
    if (!value.startsWith(SQLITE_PREFIX) && !value.startsWith(POSTGRESQL_PREFIX)) {
      throw new ConfigurationException(
          "Cannot use JDBC URL \""
              + withoutQuery(value)
              + "\": it must start with jdbc:sqlite: or jdbc:postgresql:"
              + " (e.g. jdbc:sqlite:fenceline.db)");
    }
    this.value = value;
  }

  boolean sqlite() {
    return value.startsWith(SQLITE_PREFIX);
  }

  boolean postgres() {
    return value.startsWith(POSTGRESQL_PREFIX);
  }

  /** The URL without its query: how messages name the database. */
  String description() {
    return withoutQuery(value);
  }

  /** The file a plain {@code jdbc:sqlite:} URL names, if it names one (for hints); else null. */
  Path sqliteFile() {
    return sqlite() ? sqlitePlainFile(value) : null;
  }

  /**
   * The file a {@code jdbc:sqlite:} URL names, as an absolute path (a relative name is resolved
   * against the working directory, as the driver does); empty for other URLs, in-memory databases
   * and names that are no path.
   */
  static Optional<Path> sqliteFileOf(String url) {
    return url.startsWith(SQLITE_PREFIX)
        ? Optional.ofNullable(sqlitePlainFile(url)).map(p -> p.toAbsolutePath().normalize())
        : Optional.empty();
  }

  /** PostgreSQL: the query sets {@code statement_timeout} itself (in {@code options}). */
  boolean setsStatementTimeout() {
    return postgres() && queryValues(value).stream().anyMatch(v -> v.contains("statement_timeout"));
  }

  /** The query sets the driver parameter {@code key} itself. */
  boolean setsParameter(String key) {
    return queryKeys(value).contains(key);
  }

  /**
   * What to check when no connection can be opened.
   *
   * @param sqliteFile the SQLite file the store opens, if known
   */
  String unreachableHint(Path sqliteFile, Duration connectTimeout, Duration loginTimeout) {
    if (sqlite()) {
      Path directory = sqliteFile == null ? null : sqliteFile.getParent();
      if (directory != null && !Files.isDirectory(directory)) {
        return "the directory "
            + directory
            + " does not exist; create it, or point the URL at a file in an existing directory";
      }
      return "check that the file's directory exists and this process may read and write it";
    }
    return "check that the database is running and answers, and that the URL and credentials"
        + " are right; connect timeout "
        + connectTimeout
        + ", login timeout "
        + loginTimeout
        + " unless the URL sets them";
  }

  /**
   * Connections through {@link DriverManager} with this URL and {@code base} properties, and for
   * PostgreSQL the connect, login and socket timeouts as pgjdbc's {@code connectTimeout}, {@code
   * loginTimeout} and {@code socketTimeout}, and the store's lock and statement timeouts as the
   * session's own ({@link #sessionOptions}, pgjdbc's {@code options}), except those the query sets
   * itself (a value in the URL wins; {@code statementTimeout} is null if the store sets none).
   */
  ConnectionSource connections(
      Properties base,
      Duration connectTimeout,
      Duration loginTimeout,
      Duration socketTimeout,
      Duration lockTimeout,
      Duration statementTimeout) {
    Properties properties = new Properties();
    properties.putAll(base);
    if (postgres()) {
      Set<String> inUrl = queryKeys(value);
      putSeconds(properties, inUrl, "connectTimeout", connectTimeout);
      putSeconds(properties, inUrl, "loginTimeout", loginTimeout);
      putSeconds(properties, inUrl, "socketTimeout", socketTimeout);
      if (!inUrl.contains("options") && !properties.containsKey("options")) {
        properties.setProperty("options", sessionOptions(lockTimeout, statementTimeout));
      }
    }
    String url = value;
    return () -> DriverManager.getConnection(url, properties);
  }

  /**
   * PostgreSQL: pgjdbc's {@code options} value that gives a new session the store's {@code
   * lock_timeout} and {@code statement_timeout} (the latter only if not null), so the store's
   * one-statement steps run without settings of their own ({@link
   * SafetyChecks#sessionHasTimeouts}). Give a pool of your own the same value to get that too.
   */
  static String sessionOptions(Duration lockTimeout, Duration statementTimeout) {
    return "-c lock_timeout="
        + lockTimeout.toMillis()
        + (statementTimeout == null ? "" : " -c statement_timeout=" + statementTimeout.toMillis());
  }

  private static void putSeconds(
      Properties target, Set<String> inUrl, String key, Duration timeout) {
    if (!inUrl.contains(key)) {
      // pgjdbc takes whole seconds; round up so a short timeout never becomes 0 (= none).
      long seconds = timeout.toSeconds() + (timeout.getNano() > 0 ? 1 : 0);
      target.setProperty(key, Long.toString(Math.min(seconds, Integer.MAX_VALUE)));
    }
  }

  private static Set<String> queryKeys(String url) {
    Set<String> keys = new HashSet<>();
    for (String parameter : queryParameters(url)) {
      int equals = parameter.indexOf('=');
      keys.add(equals < 0 ? parameter : parameter.substring(0, equals));
    }
    return keys;
  }

  private static List<String> queryValues(String url) {
    List<String> values = new ArrayList<>();
    for (String parameter : queryParameters(url)) {
      int equals = parameter.indexOf('=');
      if (equals >= 0) {
        values.add(URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  private static List<String> queryParameters(String url) {
    int query = url.indexOf('?');
    if (query < 0) {
      return List.of();
    }
    return List.of(url.substring(query + 1).split("&"));
  }

  /** The file a plain {@code jdbc:sqlite:} URL names, if it names one (for hints only). */
  private static Path sqlitePlainFile(String url) {
    String name = url.substring(SQLITE_PREFIX.length());
    try {
      if (name.startsWith("file:")) {
        String uri = name;
        int end = indexOfAny(uri, '?', '#');
        return Path.of(URI.create(end < 0 ? uri : uri.substring(0, end)));
      }
      int query = name.indexOf('?');
      name = query < 0 ? name : name.substring(0, query);
      return name.isEmpty() || name.equals(":memory:") ? null : Path.of(name).toAbsolutePath();
    } catch (IllegalArgumentException | FileSystemNotFoundException e) {
      return null; // not a path we can reason about; the hint stays general
    }
  }

  private static int indexOfAny(String text, char first, char second) {
    int a = text.indexOf(first);
    int b = text.indexOf(second);
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  private static String withoutQuery(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }
}
