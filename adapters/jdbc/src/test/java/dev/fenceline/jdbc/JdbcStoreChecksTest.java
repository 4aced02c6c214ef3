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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsafeStoreException;
import dev.fenceline.spi.UntrustedTokenException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDBC-only checks: signing, the millisecond ttl floor, a closed store, unfingerprinted records.
 */
class JdbcStoreChecksTest {

  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  @TempDir Path directory;

  private static JdbcChange noChange() {
    return (connection, token, operation) -> Map.of();
  }

  @Test
  void anIssuerWithKeysSignsItsTokensAndItsDestinationsRefuseUnsignedOnes() {
    TokenKeys keys =
        TokenKeys.builder()
            .key("k1", "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8))
            .build();
    try (JdbcStore store =
        JdbcStore.builder().sqliteFile(directory.resolve("signed.db")).tokenKeys(keys).build()) {
      Lease lease =
          store.leaseIssuer().tryAcquire(RESOURCE, "worker-a", Duration.ofMinutes(1)).orElseThrow();

      assertThatCode(() -> keys.verify(lease.token(), "write")).doesNotThrowAnyException();
      assertThat(
              store.destination("reports").write(lease.token(), OperationId.of("op"), noChange()))
          .isInstanceOf(Applied.class);
      FencingToken unsigned =
          new FencingToken(store.id(), RESOURCE, lease.epoch(), lease.token().holder());
      assertThatThrownBy(
              () -> store.destination("reports").write(unsigned, OperationId.of("op2"), noChange()))
          .isInstanceOf(UntrustedTokenException.class);
    }
  }

  @Test
  void aLeaseShorterThanOneMillisecondIsRefused() {
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("ttl.db"))) {
      JdbcLeaseIssuer issuer = store.leaseIssuer();

      assertThatThrownBy(() -> issuer.tryAcquire(RESOURCE, "worker-a", Duration.ofNanos(999_999)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("the ttl must be at least 1 ms");
      assertThat(issuer.status(RESOURCE).epoch()).isEqualTo(Epoch.NONE);
      assertThat(issuer.tryAcquire(RESOURCE, "worker-a", Duration.ofMillis(1))).isPresent();
    }
  }

  @Test
  void aClosedStoreRefusesEveryStep() {
    JdbcStore store = JdbcStore.sqlite(directory.resolve("closed.db"));
    JdbcDestination destination = store.destination("reports");
    store.close();

    assertThatThrownBy(
            () ->
                destination.write(
                    new FencingToken(store.id(), RESOURCE, Epoch.of(1), "worker-a"),
                    OperationId.of("op"),
                    noChange()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
  }

  /**
   * A record without a fingerprint (a change that supplied none, or a record from before
   * fingerprints) answers any retry with its receipt; a retry without a fingerprint is answered
   * too. Only two different fingerprints conflict.
   */
  @Test
  void onlyTwoDifferentFingerprintsConflict() {
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fingerprints.db"))) {
      FencingToken token = new FencingToken(store.id(), RESOURCE, Epoch.of(1), "worker-a");
      JdbcDestination reports = store.destination("reports");
      RequestFingerprint first = RequestFingerprint.sha256("first");
      Applied unfingerprinted = (Applied) reports.write(token, OperationId.of("plain"), noChange());
      Applied fingerprinted =
          (Applied)
              reports.write(
                  token, OperationId.of("signed"), JdbcChange.fingerprinted(first, noChange()));

      assertThat(
              reports.write(
                  token,
                  OperationId.of("plain"),
                  JdbcChange.fingerprinted(RequestFingerprint.sha256("any"), noChange())))
          .isEqualTo(new AlreadyApplied(unfingerprinted.receipt()));
      assertThat(reports.write(token, OperationId.of("signed"), noChange()))
          .isEqualTo(new AlreadyApplied(fingerprinted.receipt()));
      assertThatThrownBy(
              () ->
                  reports.write(
                      token,
                      OperationId.of("signed"),
                      JdbcChange.fingerprinted(RequestFingerprint.sha256("second"), noChange())))
          .isInstanceOf(OperationConflictException.class);
    }
  }

  @Test
  void aPostgresServerWithOnlyFsyncOffIsRefused() {
    try (PostgresDatabase server =
        new PostgresDatabase(
            directory.resolve("data"), Map.of("fsync", "off", "synchronous_commit", "on"))) {
      assertThatThrownBy(server::openStore)
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("fsync = off and synchronous_commit = on");
    }
  }

  @Test
  void aSqliteJournalTurnedOffIsRefused() {
    String url = "jdbc:sqlite:" + directory.resolve("no-journal.db") + "?journal_mode=OFF";

    assertThatThrownBy(() -> JdbcStore.builder().url(url).build())
        .isInstanceOf(UnsafeStoreException.class)
        .hasMessageContaining("journal_mode is off");
  }
}
