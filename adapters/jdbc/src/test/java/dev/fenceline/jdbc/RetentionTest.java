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

import dev.fenceline.spi.ConfigurationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetentionTest {

  @Test
  void acceptsAPositiveRetentionAndOneOrMoreVersions() {
    Retention retention = new Retention(Duration.ofDays(7), 1);
    assertThat(retention.receipts()).isEqualTo(Duration.ofDays(7));
    assertThat(retention.pointerVersions()).isEqualTo(1);
  }

  @Test
  void refusesBadValuesNamingThemAndTheFix() {
    assertThatThrownBy(() -> new Retention(Duration.ZERO, 3))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot keep receipts for PT0S")
        .hasMessageContaining("at least as long as callers may retry an operation");
    assertThatThrownBy(() -> new Retention(Duration.ofDays(-1), 3))
        .hasMessageContaining("Cannot keep receipts for PT-24H");
    assertThatThrownBy(() -> new Retention(Duration.ofNanos(10), 3))
        .hasMessageContaining("at least 1 ms");
    assertThatThrownBy(() -> new Retention(Duration.ofDays(7), 0))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot keep 0 pointer versions")
        .hasMessageContaining("keepVersions of every staged destination");
    assertThatThrownBy(() -> new Retention(null, 3)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void aRetentionLongerThanTheClockGoesBackDeletesNothing(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) {
    try (JdbcStore store = new SqliteDatabase(directory).openStore()) {
      PruneReport report = store.prune(new Retention(Duration.ofSeconds(Long.MAX_VALUE), 1));
      assertThat(report.receiptsDeleted()).isZero();
      assertThat(report.prunedBefore()).isEqualTo(java.time.Instant.EPOCH);
    }
  }
}
