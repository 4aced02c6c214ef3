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
package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.SqliteDatabase;
import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.PointerStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * Two processes on one bucket and prefix whose conditional-write probes disagree: process A's
 * passes (it publishes through the prefix's S3 pointer store), process B's fails (its concurrency
 * check sees two accepted PUTs, as on a correct endpoint when a probe write's answer is lost, or at
 * random on S3Mock), so B publishes through a JDBC pointer store. They can never both publish one
 * destination: whichever records its pointer store first, the other is refused.
 */
class PointerStoreRecordTest {

  @TempDir Path directory;
  private S3OnlyFixture s3;
  private JdbcStore jdbc;

  @BeforeEach
  void open() {
    s3 = new S3OnlyFixture(Kind.S3MOCK, builder -> builder.prefix("team"));
    jdbc = s3.closedLater(new SqliteDatabase(directory).openStore());
  }

  @AfterEach
  void close() throws Exception {
    s3.close();
  }

  /** Process A: a store whose probe passes. */
  private S3Store processA() {
    return s3.open(s3.builder());
  }

  /** Process B: a store on the same bucket and prefix whose probe fails. */
  private S3Store processB() {
    S3Store b =
        s3.open(
            s3.server
                .storeBuilder(s3.bucket)
                .prefix("team")
                .httpClient(
                    s3.closedLater(
                        new NonAtomicConditions(
                            new AtomicConditionalWrites(Apache5HttpClient.create()),
                            "If-None-Match"))));
    assertThatThrownBy(() -> b.pointerStore("reports"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("does not honour conditional writes");
    return b;
  }

  @Test
  void aProcessWhoseProbeFailedCannotPublishThroughJdbcWhereTheS3PointerStoreIsRecorded() {
    PointerStore s3Pointers = processA().pointerStore("reports");
    S3Store b = processB();
    PointerStore jdbcPointers = jdbc.pointerStore("reports");

    assertThatThrownBy(() -> b.blobStore().recordPointerStore(jdbcPointers))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "Cannot publish destination \"reports\" through pointer store "
                + jdbcPointers.storeId()
                + ": s3://"
                + s3.bucket
                + "/team/.fenceline/pointer-stores/reports.json records pointer store "
                + s3Pointers.storeId()
                + " for it, and two pointer stores for one destination fence nothing against each"
                + " other (publish through "
                + s3Pointers.storeId()
                + " as the other processes do, e.g. set pointer-store: to the store whose ID it"
                + " is; delete the record only once no process publishes through "
                + s3Pointers.storeId()
                + ")");
    // Another destination name on the prefix is free to use the JDBC pointer store.
    b.blobStore().recordPointerStore(jdbc.pointerStore("audit"));
  }

  @Test
  void theS3PointerStoreDoesNotOpenWhereAJdbcPointerStoreIsRecorded() {
    S3Store b = processB();
    PointerStore jdbcPointers = jdbc.pointerStore("reports");
    b.blobStore().recordPointerStore(jdbcPointers);
    b.blobStore().recordPointerStore(jdbcPointers); // again: the same store is fine

    S3Store a = processA();
    assertThatThrownBy(() -> a.pointerStore("reports"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("records pointer store " + jdbcPointers.storeId() + " for it");
    // A restarted process A (a fresh S3Store) is refused as well: the record is in the bucket.
    assertThatThrownBy(() -> processA().pointerStore("reports"))
        .isInstanceOf(ConfigurationException.class);
    assertThat(a.pointerStore("audit")).isNotNull();
  }

  @Test
  void processesRecordingAtOnceAgreeOnOne() throws Exception {
    S3Store a = processA();
    assertThat(a.conditionalWrites().honoured()).isTrue();
    S3Store b = processB();
    for (int round = 0; round < 8; round++) {
      String name = "race-" + round;
      PointerStore jdbcPointers = jdbc.pointerStore(name);
      CyclicBarrier start = new CyclicBarrier(2);
      CompletableFuture<Object> viaS3 =
          CompletableFuture.supplyAsync(() -> attempt(start, () -> a.pointerStore(name)));
      CompletableFuture<Object> viaJdbc =
          CompletableFuture.supplyAsync(
              () ->
                  attempt(
                      start,
                      () -> {
                        b.blobStore().recordPointerStore(jdbcPointers);
                        return jdbcPointers;
                      }));
      List<Object> outcomes = new ArrayList<>();
      outcomes.add(viaS3.get(60, TimeUnit.SECONDS));
      outcomes.add(viaJdbc.get(60, TimeUnit.SECONDS));
      assertThat(outcomes)
          .as("round %d: exactly one pointer store opens", round)
          .filteredOn(outcome -> outcome instanceof PointerStore)
          .hasSize(1);
      assertThat(outcomes).filteredOn(ConfigurationException.class::isInstance).hasSize(1);
    }
  }

  @Test
  void anUnreadableRecordIsAnErrorNeverAFreeName() {
    S3TestServer.get(Kind.S3MOCK)
        .admin()
        .putObject(
            b -> b.bucket(s3.bucket).key("team/.fenceline/pointer-stores/reports.json"),
            RequestBody.fromString("{\"format\":1}"));

    assertThatThrownBy(() -> processA().pointerStore("reports"))
        .isInstanceOf(dev.fenceline.spi.StoreException.class)
        .hasMessageStartingWith(
            "Cannot read the pointer store record s3://"
                + s3.bucket
                + "/team/.fenceline/pointer-stores/reports.json: expected");
  }

  private static Object attempt(CyclicBarrier start, java.util.function.Supplier<Object> open) {
    try {
      start.await(60, TimeUnit.SECONDS);
      return open.get();
    } catch (ConfigurationException e) {
      return e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
