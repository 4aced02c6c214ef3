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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A primary whose synchronous standby stalls (SIGSTOP). A commit then waits for the standby; when
 * that wait is cancelled (a cancel request: a client's query timeout, {@code pg_cancel_backend})
 * PostgreSQL keeps the transaction committed on the primary and answers with a WARNING only. Every
 * such step is an unknown outcome, never a success: the standby a failover would promote may not
 * have it, and its issuer would hand the epoch out again. A client that stops waiting (socket
 * timeout) has no answer at all: unknown too.
 */
class SynchronousReplicationTest {

  private static final Duration WAIT_BOUND = Duration.ofSeconds(30);

  private static final Duration TTL = Duration.ofMinutes(5);
  private static final Duration STREAMING_BOUND = Duration.ofSeconds(60);

  private static SynchronousStandby servers;
  private static JdbcStore store;

  @BeforeAll
  static void start() throws Exception {
    servers = SynchronousStandby.start(STREAMING_BOUND);
    store =
        servers
            .primary()
            .storeBuilder()
            // The statement timeout does not bound the wait for the standby: PostgreSQL stops
            // the timer before it commits. The socket timeout bounds it (last test).
            .socketTimeout(WAIT_BOUND)
            .build();
    try (Connection connection = servers.primary().connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE replicated_row (resource text, body text)");
    }
  }

  @AfterAll
  static void stop() {
    if (store != null) {
      store.close();
    }
    if (servers != null) {
      servers.close();
    }
  }

  /** A test before may have left the standby catching up. */
  @BeforeEach
  void standbyStreams() {
    servers.awaitStreaming(STREAMING_BOUND);
  }

  private static ResourceId fresh(String name) {
    return ResourceId.of("sync-rep/" + name + "-" + System.nanoTime());
  }

  private static FencingToken leaseOn(ResourceId resource) {
    Lease lease = store.leaseIssuer().tryAcquire(resource, "worker-1", TTL).orElseThrow();
    return lease.token();
  }

  /**
   * Runs {@code step} with the standby frozen, cancels its wait for the standby the way a query
   * timeout or an operator does (a cancel request: {@code pg_cancel_backend}), and checks it is
   * reported as an unknown outcome.
   */
  private static void assertUnknownWhenTheWaitIsCancelled(String action, ThrowingCallable step)
      throws Exception {
    servers.freezeStandby();
    try {
      CompletableFuture<Integer> cancelled =
          CompletableFuture.supplyAsync(() -> servers.cancelWaitsForTheStandby(WAIT_BOUND));
      assertThatThrownBy(step)
          .isInstanceOfSatisfying(
              StoreException.class,
              e ->
                  assertThat(e.outcomeUnknown())
                      .as("a commit the standby never confirmed is an unknown outcome: %s", e)
                      .isTrue())
          .hasMessageStartingWith("Cannot " + action + " at " + store.description() + ":")
          .hasMessageContaining(
              "the commit returned before the synchronous standby confirmed it: PostgreSQL"
                  + " warned \"canceling wait for synchronous replication")
          .hasMessageContaining(
              "the change is committed on the primary, but the synchronous standby has not"
                  + " confirmed it and a failover to that standby would lose it");
      assertThat(cancelled.get(WAIT_BOUND.toSeconds(), TimeUnit.SECONDS))
          .as("backends cancelled while waiting for the standby")
          .isEqualTo(1);
    } finally {
      servers.thawStandby();
    }
  }

  @Test
  void theStandbyIsSynchronousSoTheStoreOpensWithoutAWarningAndStepsSucceed() {
    assertThat(store.replicationWarning()).isEmpty();
    ResourceId resource = fresh("healthy");

    FencingToken token = leaseOn(resource);

    assertThat(
            store
                .pointerStore("pointers")
                .write(
                    token,
                    OperationId.of("healthy"),
                    Pointer.to("v1"),
                    RequestFingerprint.sha256("v1")))
        .isInstanceOf(Applied.class);
  }

  @Test
  void aLeaseAcquireWhoseWaitForTheStandbyWasCancelledIsAnUnknownOutcome() throws Exception {
    ResourceId resource = fresh("acquire");
    JdbcLeaseIssuer issuer = store.leaseIssuer();

    assertUnknownWhenTheWaitIsCancelled(
        "acquire the lease on " + resource, () -> issuer.tryAcquire(resource, "worker-1", TTL));

    // Unknown, not "nothing changed": the primary did commit the epoch.
    assertThat(issuer.status(resource).epoch()).isEqualTo(Epoch.of(1));
  }

  @Test
  void aPointerWriteWhoseWaitForTheStandbyWasCancelledIsAnUnknownOutcome() throws Exception {
    ResourceId resource = fresh("pointer");
    FencingToken token = leaseOn(resource);
    JdbcPointerStore pointers = store.pointerStore("pointers");
    OperationId operation = OperationId.of("publish-v2");

    assertUnknownWhenTheWaitIsCancelled(
        "write operation " + operation + " of " + resource + " to pointers",
        () -> pointers.write(token, operation, Pointer.to("v2"), RequestFingerprint.sha256("v2")));

    assertThat(pointers.lookup(resource, operation)).as("committed on the primary").isPresent();
  }

  @Test
  void aDestinationWriteWhoseWaitForTheStandbyWasCancelledIsAnUnknownOutcome() throws Exception {
    ResourceId resource = fresh("destination");
    FencingToken token = leaseOn(resource);
    JdbcDestination rows = store.destination("rows");
    OperationId operation = OperationId.of("insert-1");
    JdbcChange insert =
        (connection, fenced, op) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO replicated_row (resource, body) VALUES (?, 'one')")) {
            statement.setString(1, resource.value());
            return Map.of("rows", Integer.toString(statement.executeUpdate()));
          }
        };

    assertUnknownWhenTheWaitIsCancelled(
        "write operation " + operation + " of " + resource + " to rows",
        () -> rows.write(token, operation, insert));

    assertThat(rows.lookup(resource, operation)).as("committed on the primary").isPresent();
  }

  /** The intent store commits with {@code Connection.commit()}: its warning is the connection's. */
  @Test
  void anIntentWhoseWaitForTheStandbyWasCancelledIsAnUnknownOutcome() throws Exception {
    ResourceId resource = fresh("intent");
    FencingToken token = leaseOn(resource);
    IntentStore intents = store.intentStore("payments");
    OperationId operation = OperationId.of("charge-1");

    assertUnknownWhenTheWaitIsCancelled(
        "begin operation " + operation + " of " + resource + " at payments",
        () -> intents.begin(token, operation, RequestFingerprint.sha256("charge")));

    assertThat(intents.lookup(resource, operation)).as("committed on the primary").isPresent();
  }

  /**
   * The store's statement timeout does not end the wait (PostgreSQL disables it before the commit);
   * the socket timeout does: no answer to the commit at all, also an unknown outcome.
   */
  @Test
  void aCommitWhoseAnswerTheClientStoppedWaitingForIsAnUnknownOutcome() {
    ResourceId resource = fresh("socket");
    try (JdbcStore impatient =
        servers
            .primary()
            .storeBuilder()
            .statementTimeout(Duration.ofSeconds(1))
            .socketTimeout(Duration.ofSeconds(3))
            .build()) {
      servers.freezeStandby();
      try {
        assertThatThrownBy(() -> impatient.leaseIssuer().tryAcquire(resource, "worker-1", TTL))
            .isInstanceOfSatisfying(
                StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
            .hasMessageContaining(
                "the database did not answer the commit within the socket timeout; the commit may"
                    + " or may not have happened");
      } finally {
        servers.thawStandby();
      }
    }
  }
}
