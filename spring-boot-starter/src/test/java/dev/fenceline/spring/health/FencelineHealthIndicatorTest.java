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
package dev.fenceline.spring.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spring.Fenced;
import dev.fenceline.spring.FencedContext;
import dev.fenceline.spring.SwitchableDataSource;
import dev.fenceline.spring.TestApps;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;

/** {@link FencelineHealthIndicator}: present, absent, overridden; UP, DOWN, and its details. */
class FencelineHealthIndicatorTest {

  @TempDir Path directory;

  private final ExecutorService worker = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    worker.shutdownNow();
  }

  @Test
  void upWithTheIssuerTheDestinationsAndTheLeasesHeldNow() {
    Gate gate = new Gate();
    TestApps.onSqlite(directory)
        .withPropertyValues(TestApps.reportsDestination(directory))
        .withBean(Gate.class, () -> gate)
        .withBean(HeldJob.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(FencelineHealthIndicator.class);
              HealthIndicator indicator = context.getBean(FencelineHealthIndicator.class);
              Health idle = indicator.health();
              assertThat(idle.getStatus()).isEqualTo(Status.UP);
              assertThat(idle.getDetails().get("issuer"))
                  .isEqualTo(
                      Map.of(
                          "id",
                          context.getBean(dev.fenceline.spi.LeaseIssuer.class).id(),
                          "reachable",
                          true));
              assertThat(idle.getDetails().get("destinations"))
                  .isEqualTo(
                      Map.of(
                          "reports",
                          Map.of(
                              "guarantee",
                              "FENCED_BY_STAGING",
                              "strategy",
                              "STAGED_WITH_POINTER_STORE",
                              "why",
                              context
                                  .getBean(dev.fenceline.config.ConfiguredDestination.class)
                                  .why(),
                              "allowed",
                              true)));
              assertThat(idle.getDetails().get("leases")).isEqualTo(List.of());

              HeldJob job = context.getBean(HeldJob.class);
              Future<?> running =
                  worker.submit(
                      () -> {
                        job.hold();
                        return null;
                      });
              assertThat(gate.holding.await(10, TimeUnit.SECONDS)).isTrue();
              @SuppressWarnings("unchecked")
              List<Map<String, Object>> leases =
                  (List<Map<String, Object>>) indicator.health().getDetails().get("leases");
              assertThat(leases).hasSize(1);
              assertThat(leases.get(0))
                  .containsEntry("resource", "nightly-report")
                  .containsEntry("epoch", 1L)
                  .containsEntry("state", "HELD")
                  .containsEntry("method", "HeldJob.hold")
                  .containsKey("remainingMillis");
              gate.release.countDown();
              running.get(10, TimeUnit.SECONDS);
              assertThat(indicator.health().getDetails().get("leases")).isEqualTo(List.of());
            });
  }

  @Test
  void downWhenTheIssuersStoreCannotBeReached() {
    SwitchableDataSource database = new SwitchableDataSource(TestApps.sqliteUrl(directory));
    TestApps.runner()
        .withBean(DataSource.class, () -> database)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              HealthIndicator indicator = context.getBean(FencelineHealthIndicator.class);
              assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

              database.down(true);
              Health down = indicator.health();

              assertThat(down.getStatus()).isEqualTo(Status.DOWN);
              @SuppressWarnings("unchecked")
              Map<String, Object> issuer = (Map<String, Object>) down.getDetails().get("issuer");
              assertThat(issuer).containsEntry("reachable", false);
              assertThat((String) issuer.get("error"))
                  .startsWith("Cannot ")
                  .contains("the application's DataSource")
                  .contains("Connection refused: the database is down (test)");

              database.down(false);
              assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            });
  }

  @Test
  void downWhenADestinationsGuaranteeIsNotAllowed() {
    TestApps.onSqlite(directory)
        .withPropertyValues(
            "fenceline.destinations.payments.type=http",
            "fenceline.destinations.payments.base-uri=https://api.example.com/v1",
            "fenceline.destinations.payments.request.path=/payments/{resource}",
            "fenceline.destinations.payments.max-attempts=1")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              Health health = context.getBean(FencelineHealthIndicator.class).health();
              assertThat(health.getStatus()).isEqualTo(Status.DOWN);
              @SuppressWarnings("unchecked")
              Map<String, Map<String, Object>> destinations =
                  (Map<String, Map<String, Object>>) health.getDetails().get("destinations");
              assertThat(destinations.get("payments"))
                  .containsEntry("guarantee", "FENCED_AT_INTENT")
                  .containsEntry("allowed", false);
            });
    TestApps.onSqlite(directory)
        .withPropertyValues(
            "fenceline.allow-fenced-at-intent=true",
            "fenceline.destinations.payments.type=http",
            "fenceline.destinations.payments.base-uri=https://api.example.com/v1",
            "fenceline.destinations.payments.request.path=/payments/{resource}",
            "fenceline.destinations.payments.max-attempts=1")
        .run(
            context ->
                assertThat(context.getBean(FencelineHealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UP));
  }

  @Test
  void absentWhenTurnedOffOrWithoutSpringBootsHealthSupport() {
    TestApps.onSqlite(directory)
        .withPropertyValues("management.health.fenceline.enabled=false")
        .run(
            context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(FencelineHealthIndicator.class));
    TestApps.onSqlite(directory)
        .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
        .run(
            context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(FencelineHealthIndicator.class));
  }

  @Test
  void theApplicationsOwnIndicatorWins() {
    HealthIndicator own = () -> Health.up().withDetail("own", true).build();
    TestApps.onSqlite(directory)
        .withBean("fencelineHealthIndicator", HealthIndicator.class, () -> own)
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(FencelineHealthIndicator.class);
              assertThat(context.getBean("fencelineHealthIndicator")).isSameAs(own);
            });
  }

  /** Lets the test hold a fenced call open. */
  static final class Gate {
    final CountDownLatch holding = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
  }

  public static class HeldJob {
    private final Gate gate;

    public HeldJob(Gate gate) {
      this.gate = gate;
    }

    @Fenced(resource = "nightly-report")
    public void hold() throws InterruptedException {
      FencedContext.currentLease();
      gate.holding.countDown();
      gate.release.await();
    }
  }
}
