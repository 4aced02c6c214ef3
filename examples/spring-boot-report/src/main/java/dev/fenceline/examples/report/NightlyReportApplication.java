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
package dev.fenceline.examples.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A Spring Boot application that publishes a nightly report: {@link NightlyReportJob}, a
 * {@code @Scheduled} method that is {@code @Fenced}, so of several running instances only the one
 * holding the lease {@code nightly-report} (on the SQLite file of {@code spring.datasource.url})
 * publishes, and a stale instance's late publish is rejected by the destination.
 *
 * <p>Everything it writes lies under {@code nightly-report.home} (default {@code
 * ./nightly-report-data}): the SQLite file with the leases and publish pointers, and {@code
 * reports/}, the directory the report is published to.
 */
@SpringBootApplication
@EnableScheduling
public class NightlyReportApplication {

  /** Starts the application; see {@code application.yaml} for its settings. */
  public static void main(String[] args) {
    SpringApplication application = new SpringApplication(NightlyReportApplication.class);
    application.addListeners(new CreateHome());
    application.run(args);
  }

  /**
   * Creates {@code nightly-report.home} before the DataSource opens the SQLite file in it (SQLite
   * creates the file, not its directory).
   */
  static final class CreateHome
      implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {
    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
      Path home = Path.of(event.getEnvironment().getRequiredProperty("nightly-report.home"));
      try {
        Files.createDirectories(home);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot create the directory nightly-report.home=" + home + ": " + e.getMessage(), e);
      }
    }
  }
}
