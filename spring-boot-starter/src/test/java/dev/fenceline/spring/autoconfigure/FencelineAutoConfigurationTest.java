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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.spring.FencedAdvisingPostProcessor;
import dev.fenceline.spring.FencedRuns;
import dev.fenceline.spring.TestApps;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Every conditional bean of {@link FencelineAutoConfiguration}: present, absent, overridden. */
class FencelineAutoConfigurationTest {

  @TempDir Path directory;

  @Test
  void onTheApplicationsDataSourceFencelinesTablesLieNextToTheApplications() {
    TestApps.onSqlite(directory)
        .withPropertyValues("fenceline.lease.holder=worker-a")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context)
                  .hasSingleBean(JdbcStore.class)
                  .hasSingleBean(FencelineConfig.class)
                  .hasSingleBean(LeaseIssuer.class)
                  .hasSingleBean(Fenceline.class)
                  .hasSingleBean(FencedRuns.class)
                  .hasSingleBean(FencedAdvisingPostProcessor.class);
              DataSource dataSource = context.getBean(DataSource.class);
              try (var connection = dataSource.getConnection()) {
                connection.createStatement().execute("CREATE TABLE orders (id INTEGER)");
              }
              FencelineConfig config = context.getBean(FencelineConfig.class);
              assertThat(config.storeNames()).containsExactly("application");
              assertThat(config.storeType("application")).isEqualTo("jdbc");

              Fenceline fenceline = context.getBean(Fenceline.class);
              try (HeldLease lease = fenceline.tryAcquire(ResourceId.of("nightly-report")).get()) {
                assertThat(lease.token().holder()).isEqualTo("worker-a");
                assertThat(lease.token().issuer())
                    .isEqualTo(context.getBean(JdbcStore.class).leaseIssuer().id());
              }
              assertThat(TestApps.sqliteTables(dataSource))
                  .contains("orders")
                  .anyMatch(table -> table.startsWith("fenceline_"));
            });
  }

  @Test
  void explicitStoresLeaveTheApplicationsDatabaseAlone() {
    Path own = directory.resolve("fenceline.db");
    TestApps.onSqlite(directory)
        .withPropertyValues(
            "fenceline.stores.main.type=jdbc",
            "fenceline.stores.main.url=jdbc:sqlite:" + own,
            "fenceline.issuer=main")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              Fenceline fenceline = context.getBean(Fenceline.class);
              fenceline.tryAcquire(ResourceId.of("nightly-report")).get().close();

              assertThat(own).exists();
              assertThat(TestApps.sqliteTables(context.getBean(DataSource.class)))
                  .noneMatch(table -> table.startsWith("fenceline_"));
              // The application store is still offered, but was never opened.
              assertThat(context.getBeanFactory().containsSingleton("fencelineApplicationStore"))
                  .isFalse();
            });
  }

  @Test
  void withoutADataSourceTheStoresMustBeConfigured() {
    TestApps.runner()
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(rootCause(context.getStartupFailure()))
                  .hasMessage(
                      "Cannot configure fenceline.stores at the Spring environment: no store is"
                          + " configured (add one, e.g. stores: {main: {type: jdbc, url:"
                          + " \"jdbc:sqlite:fenceline.db\"}})");
            });
  }

  @Test
  void twoDataSourcesWithNonePrimaryStopTheApplicationWithTheReason() {
    TestApps.runner()
        .withBean(
            "ordersDb",
            DataSource.class,
            () -> new dev.fenceline.spring.SwitchableDataSource(TestApps.sqliteUrl(directory)))
        .withBean(
            "reportsDb",
            DataSource.class,
            () -> new dev.fenceline.spring.SwitchableDataSource(TestApps.sqliteUrl(directory)))
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(rootCause(context.getStartupFailure()))
                  .hasMessage(
                      "Cannot make the store application from the application's DataSource: the"
                          + " application has 2 DataSource beans (ordersDb, reportsDb) and none is"
                          + " @Primary (mark the one Fenceline should use @Primary, define a"
                          + " JdbcStore bean on it, or configure fenceline.stores and"
                          + " fenceline.issuer)");
            });
  }

  @Test
  void withoutADataSourceTheConfiguredStoresServe() {
    TestApps.runner()
        .withPropertyValues(
            "fenceline.stores.main.type=jdbc",
            "fenceline.stores.main.url=jdbc:sqlite:" + directory.resolve("fenceline.db"),
            "fenceline.issuer=main")
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(JdbcStore.class);
              assertThat(context.getBean(FencelineConfig.class).storeNames())
                  .containsExactly("main");
              assertThat(context.getBean(Fenceline.class).tryAcquire(ResourceId.of("r")))
                  .isPresent();
            });
  }

  @Test
  void theApplicationsOwnIssuerIsTheOneFencelineUses() {
    InMemoryLeaseIssuer own =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), Clock.systemUTC());
    TestApps.onSqlite(directory)
        .withBean(LeaseIssuer.class, () -> own)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(LeaseIssuer.class)).isSameAs(own);
              HeldLease lease =
                  context.getBean(Fenceline.class).tryAcquire(ResourceId.of("r")).orElseThrow();
              assertThat(lease.token().issuer()).isEqualTo(own.id());
              lease.close();
              // The application store was never needed.
              assertThat(context.getBeanFactory().containsSingleton("fencelineApplicationStore"))
                  .isFalse();
            });
  }

  @Test
  void theApplicationsOwnBeansWin() {
    InMemoryLeaseIssuer issuer =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), Clock.systemUTC());
    Fenceline own = Fenceline.builder().issuer(issuer).holder("own").build();
    FencedRuns runs = new FencedRuns();
    TestApps.onSqlite(directory)
        .withBean("myFenceline", Fenceline.class, () -> own)
        .withBean("myRuns", FencedRuns.class, () -> runs)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(Fenceline.class).hasSingleBean(FencedRuns.class);
              assertThat(context.getBean(Fenceline.class)).isSameAs(own);
              assertThat(context.getBean(FencedRuns.class)).isSameAs(runs);
              // The configuration's destinations publish through the application's Fenceline.
              assertThat(context.getBean(FencelineConfig.class).fenceline()).isSameAs(own);
            });
    own.close();
  }

  @Test
  void theApplicationsOwnJdbcStoreIsTheApplicationStore() {
    TestApps.onSqlite(directory)
        .withBean(
            "ledgerStore",
            JdbcStore.class,
            () -> JdbcStore.builder().url("jdbc:sqlite:" + directory.resolve("own.db")).build())
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(JdbcStore.class);
              assertThat(context.getBean(LeaseIssuer.class).id())
                  .isEqualTo(context.getBean("ledgerStore", JdbcStore.class).leaseIssuer().id());
              assertThat(TestApps.sqliteTables(context.getBean(DataSource.class)))
                  .noneMatch(table -> table.startsWith("fenceline_"));
            });
  }

  @Test
  void theApplicationsOwnConfigurationIsUsed() throws Exception {
    Path file = directory.resolve("fenceline.yaml");
    Files.writeString(
        file,
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
        issuer: main
        lease:
          holder: from-the-file
        """
            .formatted(directory.resolve("file.db")));
    TestApps.onSqlite(directory)
        .withBean(FencelineConfig.class, () -> FencelineConfig.load(file))
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(FencelineConfig.class);
              assertThat(context.getBean(FencelineConfig.class).file()).isEqualTo(file);
              HeldLease lease =
                  context.getBean(Fenceline.class).tryAcquire(ResourceId.of("r")).orElseThrow();
              assertThat(lease.token().holder()).isEqualTo("from-the-file");
              lease.close();
            });
  }

  @Test
  void eachDestinationIsABeanOfItsNameInjectedByQualifier() {
    Path reports = directory.resolve("reports");
    TestApps.onSqlite(directory)
        .withPropertyValues(
            "fenceline.stores.reports-dir.type=vfs",
            "fenceline.stores.reports-dir.uri=" + reports,
            "fenceline.destinations.reports.store=reports-dir",
            "fenceline.destinations.archive.store=reports-dir",
            "fenceline.destinations.archive.prefix=archive")
        .withUserConfiguration(ReportPublisher.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBeansOfType(ConfiguredDestination.class))
                  .containsOnlyKeys("reports", "archive");
              ReportPublisher publisher = context.getBean(ReportPublisher.class);
              assertThat(publisher.reports.name()).isEqualTo("reports");
              assertThat(publisher.reports.guarantee()).isEqualTo(Guarantee.FENCED_BY_STAGING);

              Fenceline fenceline = context.getBean(Fenceline.class);
              try (HeldLease lease = fenceline.tryAcquire(ResourceId.of("nightly-report")).get()) {
                WriteOutcome outcome = publisher.publish(fenceline, lease, "report of day 1");
                assertThat(outcome).isInstanceOf(Applied.class);
              }
              // The pointer store is the issuer's: the application store.
              assertThat(TestApps.sqliteTables(context.getBean(DataSource.class)))
                  .anyMatch(table -> table.startsWith("fenceline_"));
            });
  }

  @Test
  void aDestinationBeanOfTheDestinationsNameThatTheApplicationDefinesStays() {
    TestApps.onSqlite(directory)
        .withPropertyValues(TestApps.reportsDestination(directory))
        .withUserConfiguration(OwnReportsBean.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean("reports")).isSameAs(OwnReportsBean.OWN);
              assertThat(context).doesNotHaveBean(ConfiguredDestination.class);
            });
  }

  @Test
  void aBeanOfTheDestinationsNameThatIsNoDestinationStopsTheApplication() {
    TestApps.onSqlite(directory)
        .withPropertyValues(TestApps.reportsDestination(directory))
        .withUserConfiguration(OwnReportsString.class)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(rootCause(context.getStartupFailure()))
                  .isInstanceOf(dev.fenceline.spi.ConfigurationException.class)
                  .hasMessage(
                      "Cannot register destination reports as a bean: the application has a"
                          + " bean of that name (java.lang.String) (rename one)");
            });
    TestApps.onSqlite(directory)
        .withPropertyValues(
            "fenceline.stores.reports-dir.type=vfs",
            "fenceline.stores.reports-dir.uri=" + directory.resolve("reports"),
            "fenceline.destinations.fenceline.store=reports-dir")
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(rootCause(context.getStartupFailure()))
                  .hasMessage(
                      "Cannot register destination fenceline as a bean: the application has a"
                          + " bean of that name (dev.fenceline.core.Fenceline) (rename one)");
            });
  }

  @Test
  void closingTheContextClosesFencelineAndTheStores() {
    Fenceline[] fenceline = new Fenceline[1];
    JdbcStore[] store = new JdbcStore[1];
    FencelineConfig[] config = new FencelineConfig[1];
    TestApps.onSqlite(directory)
        .run(
            context -> {
              fenceline[0] = context.getBean(Fenceline.class);
              store[0] = context.getBean(JdbcStore.class);
              config[0] = context.getBean(FencelineConfig.class);
              assertThat(fenceline[0].tryAcquire(ResourceId.of("r"))).isPresent();
            });
    assertThatThrownBy(() -> fenceline[0].tryAcquire(ResourceId.of("r")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("this Fenceline is closed");
    assertThatThrownBy(() -> store[0].leaseIssuer().status(ResourceId.of("r")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(config[0]::issuer)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot use the configuration the Spring environment: it is closed (load it again)");
  }

  static Throwable rootCause(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** A user component that takes a destination by its name. */
  @Configuration(proxyBeanMethods = false)
  static class ReportPublisher {
    final ConfiguredDestination reports;

    ReportPublisher(@Qualifier("reports") ConfiguredDestination reports) {
      this.reports = reports;
    }

    @SuppressWarnings("unchecked")
    WriteOutcome publish(Fenceline fenceline, HeldLease lease, String text) {
      InputStream content = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
      return fenceline.publish(
          lease,
          (dev.fenceline.spi.Destination<InputStream>) reports.destination(),
          OperationId.of("report-day-1"),
          content);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnReportsBean {
    static final dev.fenceline.tck.memory.InMemoryPointerStore OWN =
        new dev.fenceline.tck.memory.InMemoryPointerStore(
            new dev.fenceline.tck.memory.InMemoryPointerStore.Storage(),
            "reports",
            dev.fenceline.spi.StepListener.NONE,
            java.time.Clock.systemUTC());

    @Bean
    dev.fenceline.tck.memory.InMemoryPointerStore reports() {
      return OWN;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnReportsString {
    @Bean
    String reports() {
      return "the application's own";
    }
  }
}
