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
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pooled connection goes back to the pool clean, whatever the change threw. */
class PooledConnectionTest {

  private static final ResourceId LEDGER = ResourceId.of("ledger/acct-42");
  private static final FencingToken TOKEN =
      new FencingToken("test-issuer", LEDGER, Epoch.of(1), "worker-a");

  @TempDir Path directory;

  @Test
  void aCheckedExceptionFromAChangeRollsBackSoThePooledConnectionKeepsNoWriteLock()
      throws Exception {
    Path file = directory.resolve("fenceline.db");
    JdbcStore.sqlite(file).close();
    try (SingleConnectionPool pool = new SingleConnectionPool("jdbc:sqlite:" + file);
        JdbcStore pooled =
            JdbcStore.builder()
                .dataSource(pool, "one-connection pool")
                .lockTimeout(Duration.ofSeconds(1))
                .build()) {
      IOException thrown = new IOException("disk of the report generator is full");

      assertThatThrownBy(
              () ->
                  pooled
                      .destination("reports")
                      .write(
                          TOKEN,
                          OperationId.of("fails"),
                          (connection, token, operation) -> sneakyThrow(thrown)))
          .isSameAs(thrown);

      assertThat(pooled.destination("reports").write(TOKEN, OperationId.of("next"), noChange()))
          .isInstanceOf(Applied.class);
      try (JdbcStore other =
          JdbcStore.builder()
              .url("jdbc:sqlite:" + file)
              .lockTimeout(Duration.ofSeconds(1))
              .build()) {
        assertThat(other.destination("reports").write(TOKEN, OperationId.of("other"), noChange()))
            .isInstanceOf(Applied.class);
        assertThat(other.destination("reports").lookup(LEDGER, OperationId.of("fails"))).isEmpty();
      }
    }
  }

  private static JdbcChange noChange() {
    return (connection, token, operation) -> Map.of();
  }

  /** Throws a checked exception the compiler does not see, as Lombok's @SneakyThrows does. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable, R> R sneakyThrow(Throwable throwable) throws T {
    throw (T) throwable;
  }
}
