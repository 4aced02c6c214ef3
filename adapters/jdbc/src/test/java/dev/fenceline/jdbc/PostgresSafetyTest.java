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

import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.UnsafeStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** R1 and R5 on a real PostgreSQL server. */
class PostgresSafetyTest {

  @TempDir Path directory;

  @Test
  void refusesAServerThatCanLoseCommitsUnlessTheRiskIsAcceptedByName() {
    // The embedded server's own defaults: fsync=off, synchronous_commit=off.
    try (PostgresDatabase fast = new PostgresDatabase(directory.resolve("data"), Map.of())) {
      assertThatThrownBy(fast::openStore)
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("fsync = off and synchronous_commit = off")
          .hasMessageContaining("unsafeAllowEpochRollbackOnCrash(true)");

      try (JdbcStore store =
          JdbcStore.builder().url(fast.url()).unsafeAllowEpochRollbackOnCrash(true).build()) {
        assertThat(store.leaseIssuer().status(ResourceId.of("r")).held()).isFalse();
      }
    }
  }

  @Test
  void refusesOnlySynchronousCommitOffToo() {
    try (PostgresDatabase server =
        new PostgresDatabase(
            directory.resolve("data"), Map.of("fsync", "on", "synchronous_commit", "off"))) {
      assertThatThrownBy(server::openStore)
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("synchronous_commit = off");
    }
  }

  @Test
  void refusesAServerInRecovery() throws Exception {
    Path data = directory.resolve("data");
    try (PostgresDatabase server =
        new PostgresDatabase(data, Map.of("fsync", "on", "synchronous_commit", "on"))) {
      server.openStore().close();
      server.stop();
      // A standby without a primary to follow: it starts, accepts read-only connections and
      // stays in recovery.
      Files.createFile(data.resolve("standby.signal"));
      server.start();

      assertThatThrownBy(server::openStore)
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("pg_is_in_recovery() = true")
          .hasMessageContaining("point the URL at the primary");
    }
  }
}
