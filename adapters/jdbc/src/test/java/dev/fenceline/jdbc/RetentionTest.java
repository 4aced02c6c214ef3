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
