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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.SilentServer;
import dev.fenceline.tck.TimedFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No call waits forever on a PostgreSQL server that accepts connections and never answers: the
 * server is frozen with SIGSTOP (its own instance, not the shared one), and every call must end
 * with a {@link StoreException} that says rightly whether the step may have committed.
 */
class PostgresFrozenServerTest {

  /**
   * The bound every call must meet: well above the 1-2 s timeouts set below, well below the
   * drivers' own defaults (pgjdbc: connect 10 s, login and socket none).
   */
  private static final Duration WITHIN = Duration.ofSeconds(8);

  /** For a timeout that must not be the one that fires. */
  private static final Duration NEVER = Duration.ofSeconds(60);

  private static final Duration SHORT = Duration.ofSeconds(1);

  /** The default lease ttl ({@code Fenceline.builder()}, YAML {@code lease.ttl}). */
  private static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

  /**
   * What a call with the store's default timeouts must meet: clearly below the default ttl, so the
   * worker learns that the store is gone while its lease still runs.
   */
  private static final Duration WITHIN_DEFAULT_TTL = DEFAULT_TTL.minusSeconds(5);

  @TempDir static Path directory;
  private static PostgresDatabase database;

  @BeforeAll
  static void start() {
    database =
        new PostgresDatabase(
            directory.resolve("data"), Map.of("fsync", "on", "synchronous_commit", "on"));
  }

  @AfterAll
  static void stop() {
    database.close();
  }

  @AfterEach
  void thaw() {
    database.thaw();
  }

  private static JdbcStore.Builder shortTimeouts(String url) {
    return JdbcStore.builder()
        .url(url)
        .connectTimeout(SHORT)
        .loginTimeout(SHORT)
        .socketTimeout(Duration.ofSeconds(2))
        .statementTimeout(SHORT);
  }

  @Test
  void buildAgainstAFrozenServerFailsWithinTheLoginTimeout() {
    database.freeze(false);
    try {
      StoreException failure =
          TimedFailure.within(
                  WITHIN,
                  StoreException.class,
                  () -> shortTimeouts(database.url()).socketTimeout(NEVER).build())
              .thrown();

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure)
          .hasMessageStartingWith("Cannot open jdbc:postgresql:")
          .hasMessageContaining("login timeout PT1S");
    } finally {
      database.thaw();
    }
  }

  @Test
  void aLoginTimeoutInTheUrlWinsOverTheBuildersDefault() {
    database.freeze(false);
    try {
      StoreException failure =
          TimedFailure.within(
                  WITHIN,
                  StoreException.class,
                  () ->
                      JdbcStore.builder()
                          .url(database.url() + "&loginTimeout=1")
                          .loginTimeout(NEVER)
                          .socketTimeout(NEVER)
                          .build())
              .thrown();

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
    } finally {
      database.thaw();
    }
  }

  @Test
  void connectingToAServerWhoseAcceptQueueIsFullFailsWithinTheConnectTimeout() throws IOException {
    // A listener that never accepts: once its queue is full, the kernel drops further SYNs.
    try (ServerSocket frozen = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<Socket> queued = new ArrayList<>();
      try {
        for (int i = 0; i < 2; i++) {
          Socket socket = new Socket();
          socket.connect(frozen.getLocalSocketAddress(), 1000);
          queued.add(socket);
        }
        String url = "jdbc:postgresql://127.0.0.1:" + frozen.getLocalPort() + "/postgres";

        StoreException failure =
            TimedFailure.within(
                    WITHIN,
                    StoreException.class,
                    () -> shortTimeouts(url).loginTimeout(NEVER).socketTimeout(NEVER).build())
                .thrown();

        assertThat(failure).isNotNull();
        assertThat(failure.outcomeUnknown()).isFalse();
        assertThat(failure).hasMessageContaining("connect timeout PT1S");
      } finally {
        for (Socket socket : queued) {
          socket.close();
        }
      }
    }
  }

  @Test
  void withTheDefaultTimeoutsAWriteToAFrozenServerFailsClearlyWithinTheDefaultTtl() {
    try (JdbcStore store = JdbcStore.builder().url(database.url()).build()) {
      ResourceId ledger = ResourceId.of("ledger/frozen-with-defaults");
      FencingToken token = new FencingToken("test-issuer", ledger, Epoch.of(1), "worker-a");
      OperationId operation = OperationId.of("frozen-with-defaults");
      TimedFailure<StoreException> timed =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL,
              StoreException.class,
              () ->
                  store
                      .destination("reports", freezeAt(FencingStep.AFTER_EPOCH_CHECK))
                      .write(token, operation, PostgresFrozenServerTest::selectOne));
      StoreException failure = timed.thrown();
      Duration took = timed.took();
      database.thaw();
      System.out.println("frozen PostgreSQL, default timeouts: the write failed after " + took);

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure)
          .hasMessageContaining(
              "did not answer within the socket timeout of " + JdbcStore.DEFAULT_SOCKET_TIMEOUT)
          .hasMessageContaining("nothing was committed");
      // The socket timeout ended it, not something earlier.
      assertThat(took).isGreaterThanOrEqualTo(JdbcStore.DEFAULT_SOCKET_TIMEOUT.minusMillis(500));
      assertThat(store.destination("reports").lookup(ledger, operation)).isEmpty();
    }
  }

  @Test
  void withTheDefaultTimeoutsAServerThatNeverAnswersTheHandshakeFailsClearlyWithinTheDefaultTtl()
      throws Exception {
    // Accepts every connection and never sends a byte: the startup (and TLS) request gets no
    // answer.
    try (SilentServer silent = SilentServer.start("postgres")) {
      String url = "jdbc:postgresql://127.0.0.1:" + silent.port() + "/postgres";
      TimedFailure<StoreException> timed =
          TimedFailure.within(
              WITHIN_DEFAULT_TTL, StoreException.class, () -> JdbcStore.builder().url(url).build());
      StoreException failure = timed.thrown();
      Duration took = timed.took();
      System.out.println(
          "silent PostgreSQL handshake, default timeouts: failed after " + took + ": " + failure);

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure)
          .hasMessageStartingWith("Cannot open jdbc:postgresql://127.0.0.1:")
          .hasMessageContaining("login timeout " + JdbcStore.DEFAULT_LOGIN_TIMEOUT);
      assertThat(silent.acceptedConnections()).isPositive();
      // A timeout ended it, not a refused connection: the login timeout (8 s), or once in a
      // while pgjdbc's 5 s sslResponseTimeout for the TLS request that goes first.
      assertThat(took).isGreaterThan(Duration.ofSeconds(4));
    }
  }

  @Test
  void aWriteWhoseServerFreezesBeforeTheCommitFailsWithNothingCommitted() {
    try (JdbcStore store = shortTimeouts(database.url()).build()) {
      ResourceId ledger = ResourceId.of("ledger/before-commit");
      FencingToken token = new FencingToken("test-issuer", ledger, Epoch.of(1), "worker-a");
      OperationId operation = OperationId.of("before-commit");
      StoreException failure =
          writeFailure(
              store.destination("reports", freezeAt(FencingStep.AFTER_EPOCH_CHECK)),
              token,
              operation,
              PostgresFrozenServerTest::selectOne);
      database.thaw();

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure)
          .hasMessageContaining("did not answer within the socket timeout of PT2S")
          .hasMessageContaining("nothing was committed");
      assertThat(store.destination("reports").lookup(ledger, operation)).isEmpty();
    }
  }

  /**
   * A change with one statement: the freeze after the epoch check hits it, before the commit (an
   * empty change's next statement is the one that carries the COMMIT).
   */
  private static Map<String, String> selectOne(
      java.sql.Connection connection, FencingToken token, OperationId operation)
      throws java.sql.SQLException {
    try (java.sql.Statement statement = connection.createStatement()) {
      statement.executeQuery("SELECT 1").close();
    }
    return Map.of();
  }

  /**
   * A change whose one statement runs a minute: longer than any timeout here but {@link #NEVER}.
   */
  private static Map<String, String> sleepAMinute(
      java.sql.Connection connection, FencingToken token, OperationId operation)
      throws java.sql.SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SELECT pg_sleep(60)");
    }
    return Map.of();
  }

  /** What the write throws; it must end within {@link #WITHIN}. */
  private static StoreException writeFailure(
      JdbcDestination destination, FencingToken token, OperationId operation, JdbcChange change) {
    return TimedFailure.within(
            WITHIN, StoreException.class, () -> destination.write(token, operation, change))
        .thrown();
  }

  /** Freezes the server, backends too, when a write reaches {@code at}. */
  private static StepListener freezeAt(FencingStep at) {
    return (step, writing, operation) -> {
      if (step == at) {
        database.freeze(true);
      }
    };
  }

  @Test
  void aServerThatFreezesDuringTheCommitLeavesTheOutcomeUnknown() {
    try (JdbcStore store = shortTimeouts(database.url()).build()) {
      FencingToken token =
          new FencingToken(
              "test-issuer", ResourceId.of("ledger/during-commit"), Epoch.of(1), "worker-a");
      // AFTER_APPLY is the last point before the commit: the COMMIT then gets no answer.
      StoreException failure =
          writeFailure(
              store.destination("reports", freezeAt(FencingStep.AFTER_APPLY)),
              token,
              OperationId.of("during-commit"),
              (connection, t, o) -> Map.of());

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isTrue();
      assertThat(failure)
          .hasMessageContaining("did not answer the commit within the socket timeout")
          .hasMessageContaining("may or may not have happened");
    }
  }

  @Test
  void aStatementRunningLongerThanTheStatementTimeoutIsCancelledWithNothingCommitted() {
    try (JdbcStore store =
        shortTimeouts(database.url())
            .statementTimeout(Duration.ofMillis(500))
            .socketTimeout(NEVER)
            .build()) {
      ResourceId ledger = ResourceId.of("ledger/slow");
      OperationId operation = OperationId.of("slow");

      StoreException failure =
          writeFailure(
              store.destination("reports"),
              new FencingToken("test-issuer", ledger, Epoch.of(1), "worker-a"),
              operation,
              PostgresFrozenServerTest::sleepAMinute);

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure)
          .hasMessageContaining("longer than the statement timeout of PT0.5S")
          .hasMessageContaining("nothing was committed");
      assertThat(store.destination("reports").lookup(ledger, operation)).isEmpty();
    }
  }

  @Test
  void aStatementTimeoutInTheUrlWinsOverTheBuilders() {
    String url = database.url() + "&options=-c%20statement_timeout%3D500";
    try (JdbcStore store =
        shortTimeouts(url).statementTimeout(NEVER).socketTimeout(NEVER.multipliedBy(2)).build()) {
      StoreException failure =
          writeFailure(
              store.destination("reports"),
              new FencingToken(
                  "test-issuer", ResourceId.of("ledger/slow-by-url"), Epoch.of(1), "worker-a"),
              OperationId.of("slow-by-url"),
              PostgresFrozenServerTest::sleepAMinute);

      assertThat(failure).isNotNull();
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(failure).hasMessageContaining("statement timeout");
    }
  }
}
