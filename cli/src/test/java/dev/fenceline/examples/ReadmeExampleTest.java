package dev.fenceline.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcDestination;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java example, kept compiling and passing. */
class ReadmeExampleTest {

  @TempDir Path directory;
  private final List<String> log = new ArrayList<>();

  /** The README example, verbatim apart from the database path and the log. */
  void publishNightlyReport(Path databaseFile, String report) {
    try (JdbcStore store = JdbcStore.sqlite(databaseFile);
        Fenceline fenceline =
            Fenceline.builder()
                .issuer(store.leaseIssuer())
                .holder("report-worker@" + ProcessHandle.current().pid())
                .leaseTtl(Duration.ofSeconds(30))
                .build()) {
      JdbcDestination reports = store.destination("reports");
      Optional<HeldLease> acquired = fenceline.tryAcquire(ResourceId.of("nightly-report"));
      if (acquired.isEmpty()) {
        return; // another worker holds the lease
      }
      try (HeldLease lease = acquired.get()) {
        fenceline.register(lease, reports); // cut every older owner off before writing
        WriteOutcome outcome =
            fenceline.publish(
                lease,
                reports,
                OperationId.of("report-2026-10-27"),
                (connection, token, operation) -> {
                  // Runs in the transaction that checked the epoch and records the operation.
                  try (PreparedStatement insert =
                      connection.prepareStatement(
                          "INSERT INTO report (day, body, epoch) VALUES (?, ?, ?)")) {
                    insert.setString(1, "2026-10-27");
                    insert.setString(2, report);
                    insert.setLong(3, token.epoch().value());
                    insert.executeUpdate();
                  }
                  return Map.of("day", "2026-10-27");
                });
        if (outcome instanceof Applied applied) {
          log.add("published under epoch " + applied.receipt().epoch());
        } else if (outcome instanceof AlreadyApplied again) {
          log.add("already published under epoch " + again.receipt().epoch());
        } else if (outcome instanceof RejectedStale stale) {
          log.add(stale.describe("publish the report"));
        }
      }
    }
  }

  @Test
  void theExamplePublishesOnceAndReplaysOnRetry() throws Exception {
    Path file = directory.resolve("fenceline.db");
    createReportTable(file);

    publishNightlyReport(file, "42 orders");
    publishNightlyReport(file, "42 orders");

    assertThat(log).containsExactly("published under epoch 1", "already published under epoch 1");
    assertThat(reportRows(file)).containsExactly("42 orders@1");
  }

  @Test
  void aStaleTokenIsRejectedByTheSameDestination() throws Exception {
    Path file = directory.resolve("fenceline.db");
    createReportTable(file);
    publishNightlyReport(file, "42 orders");

    try (JdbcStore store = JdbcStore.sqlite(file)) {
      FencingToken stale =
          new FencingToken(store.id(), ResourceId.of("nightly-report"), Epoch.of(1), "old-worker");
      store
          .destination("reports")
          .register(new FencingToken(store.id(), stale.resource(), Epoch.of(2), "new-worker"));
      assertThat(
              store
                  .destination("reports")
                  .write(stale, OperationId.of("report-2026-10-28"), (c, t, o) -> Map.of()))
          .isEqualTo(new RejectedStale(stale.resource(), Epoch.of(1), Epoch.of(2)));
    }
  }

  private static void createReportTable(Path file) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE report (day TEXT, body TEXT, epoch INTEGER)");
    }
  }

  private static List<String> reportRows(Path file) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT body, epoch FROM report")) {
      while (result.next()) {
        rows.add(result.getString(1) + "@" + result.getLong(2));
      }
    }
    return rows;
  }
}
