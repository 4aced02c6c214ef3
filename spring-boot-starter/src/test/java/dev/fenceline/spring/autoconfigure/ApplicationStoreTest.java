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
package dev.fenceline.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.PostgresDatabase;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.spring.TestApps;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The default store: Fenceline on the application's own DataSource (a Hikari pool, as Spring Boot
 * makes it), on SQLite and on PostgreSQL, shared by two instances of the application.
 */
class ApplicationStoreTest {

  @TempDir Path directory;

  @Test
  void twoInstancesOnOneSqliteFileShareTheLeaseAndThePoolWaitsForTheWriteLock() throws Exception {
    ApplicationContextRunner app =
        TestApps.onSqlite(directory).withPropertyValues(TestApps.reportsDestination(directory));
    app.withPropertyValues("fenceline.lease.holder=instance-a")
        .run(
            a ->
                app.withPropertyValues("fenceline.lease.holder=instance-b")
                    .run(b -> twoInstances(a, b)));
  }

  private void twoInstances(ConfigurableApplicationContext a, ConfigurableApplicationContext b)
      throws Exception {
    assertThat(a).isNotNull();
    Fenceline fencelineA = a.getBean(Fenceline.class);
    Fenceline fencelineB = b.getBean(Fenceline.class);
    ResourceId report = ResourceId.of("nightly-report");
    HeldLease first = fencelineA.tryAcquire(report).orElseThrow();
    assertThat(fencelineB.tryAcquire(report)).isEmpty();
    first.close();
    HeldLease second = fencelineB.tryAcquire(report).orElseThrow();
    assertThat(second.token().epoch()).isGreaterThan(first.token().epoch());

    // The older epoch's publish is rejected once the newer one published.
    WriteOutcome newer = publish(b, fencelineB, second, "from b");
    assertThat(newer).isInstanceOf(Applied.class);
    WriteOutcome older =
        fencelineA.publish(
            first.token(), destination(a), OperationId.of("report-day-1-a"), stream("from a"));
    assertThat(older).isInstanceOf(RejectedStale.class);
    second.close();

    // Both pools write to the file at once (leases, and the application's own rows): SQLite has
    // one writer at a time; every step waits for the lock (busy_timeout, the lock timeout) instead
    // of failing with SQLITE_BUSY.
    DataSource dataSource = a.getBean(DataSource.class);
    try (Connection connection = dataSource.getConnection()) {
      connection.createStatement().execute("CREATE TABLE audit (instance TEXT, n INTEGER)");
    }
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Integer>> work = new ArrayList<>();
      long started = System.nanoTime();
      for (int t = 0; t < 4; t++) {
        ResourceId resource = ResourceId.of("job-" + t);
        work.add(() -> cycles(fencelineA, resource, 25));
        work.add(() -> cycles(fencelineB, resource, 25));
        int thread = t;
        work.add(() -> appWrites(dataSource, "a-" + thread, 25));
      }
      int done = 0;
      for (Future<Integer> result : threads.invokeAll(work, 120, TimeUnit.SECONDS)) {
        done += result.get();
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      System.out.println(
          "ApplicationStoreTest: " + done + " SQLite steps through two pools in " + millis + " ms");
      assertThat(done).isEqualTo(4 * 25 + 4 * 25 + 4 * 25);
    } finally {
      threads.shutdownNow();
    }
    try (Connection connection = dataSource.getConnection();
        ResultSet count = connection.createStatement().executeQuery("SELECT count(*) FROM audit")) {
      count.next();
      assertThat(count.getInt(1)).isEqualTo(100);
    }
  }

  /** Acquire-and-release cycles (or a skip while the other instance holds it); steps counted. */
  private static int cycles(Fenceline fenceline, ResourceId resource, int count) {
    int steps = 0;
    for (int i = 0; i < count; i++) {
      fenceline.tryAcquire(resource).ifPresent(HeldLease::close);
      steps++;
    }
    return steps;
  }

  private static int appWrites(DataSource dataSource, String instance, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      try (Connection connection = dataSource.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("PRAGMA busy_timeout = 10000");
        statement.execute("INSERT INTO audit VALUES ('" + instance + "', " + i + ")");
      }
    }
    return count;
  }

  @Test
  void onPostgresqlTheTablesLieInTheApplicationsDatabase() {
    String url = PostgresDatabase.shared().url();
    ApplicationContextRunner app =
        TestApps.onDataSource("spring.datasource.url=" + url)
            .withPropertyValues(TestApps.reportsDestination(directory));
    app.withPropertyValues("fenceline.lease.holder=instance-a")
        .run(
            a -> {
              assertThat(a).hasNotFailed();
              DataSource dataSource = a.getBean(DataSource.class);
              try (Connection connection = dataSource.getConnection()) {
                connection
                    .createStatement()
                    .execute("CREATE TABLE IF NOT EXISTS orders (id INTEGER)");
              }
              Fenceline fenceline = a.getBean(Fenceline.class);
              ResourceId report = ResourceId.of("pg-nightly-report");
              try (HeldLease lease = fenceline.tryAcquire(report).orElseThrow()) {
                app.withPropertyValues("fenceline.lease.holder=instance-b")
                    .run(b -> assertThat(b.getBean(Fenceline.class).tryAcquire(report)).isEmpty());
                assertThat(publish(a, fenceline, lease, "pg report")).isInstanceOf(Applied.class);
              }
              List<String> tables =
                  TestApps.strings(
                      dataSource,
                      "SELECT table_name FROM information_schema.tables"
                          + " WHERE table_schema = current_schema() ORDER BY 1");
              assertThat(tables).contains("orders").anyMatch(t -> t.startsWith("fenceline_"));
            });
  }

  private static WriteOutcome publish(
      ConfigurableApplicationContext context, Fenceline fenceline, HeldLease lease, String text) {
    return fenceline.publish(
        lease, destination(context), OperationId.of("report-day-1"), stream(text));
  }

  @SuppressWarnings("unchecked")
  private static Destination<InputStream> destination(ConfigurableApplicationContext context) {
    return (Destination<InputStream>)
        context.getBean("reports", ConfiguredDestination.class).destination();
  }

  private static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
