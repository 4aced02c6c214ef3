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
package dev.fenceline.chaos.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.chaos.backends.PostgresBackend;
import dev.fenceline.chaos.history.Event;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chaos run on embedded PostgreSQL (issuer and pointer store) with files in a directory, under
 * pauses, kills, {@code store-restart}, {@code store-kill} and the proxy faults between the workers
 * and the server.
 */
class PostgresChaosRunTest {

  @AfterEach
  void nothingLeftRunning() {
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
        .as("processes left behind by the run")
        .isEmpty();
  }

  @Test
  void allChecksPassUnderRestartsKillsAndProxyFaults() throws Exception {
    BackendRun.Outcome outcome =
        BackendRun.run("postgres", PostgresBackend::start, 5L, Duration.ofMillis(500));
    BackendRun.assertPassed(outcome);
    // The server was really down: calls failed while it was stopped or killed.
    assertThat(outcome.history().stream().filter(e -> e.type() == Event.Type.FAIL).count())
        .as("failed calls")
        .isPositive();
  }
}
