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

import dev.fenceline.chaos.backends.HttpBackend;
import dev.fenceline.chaos.history.Event;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chaos run on the HTTP destination (a fake payments API that honours idempotency keys; intents
 * and issuer in SQLite), under pauses, kills, {@code api-5xx}, {@code api-drop-answers}, the proxy
 * faults between the workers and the API and a lock on the SQLite file.
 */
class HttpChaosRunTest {

  @AfterEach
  void nothingLeftRunning() {
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
        .as("processes left behind by the run")
        .isEmpty();
  }

  @Test
  void allChecksPassUnderApiFaultsProxyFaultsAndLocks() throws Exception {
    BackendRun.Outcome outcome =
        BackendRun.run("http", HttpBackend::start, 74L, Duration.ofMillis(500), 2);
    BackendRun.assertPassed(outcome);
    // The API really failed: calls failed on 503s and cuts.
    assertThat(outcome.history().stream().filter(e -> e.type() == Event.Type.FAIL).count())
        .as("failed calls")
        .isPositive();
  }
}
