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

import dev.fenceline.chaos.backends.S3Backend;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chaos run on S3Proxy behind the conditional-write-serializing proxy (blobs and pointers; the
 * issuer in SQLite), under pauses, kills, the proxy faults between the workers and the serializing
 * proxy ({@code proxy-drop-answers}: the request lands, the answer is lost) and a lock on the
 * issuer's SQLite file.
 */
class S3ChaosRunTest {

  @AfterEach
  void nothingLeftRunning() {
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
        .as("processes left behind by the run")
        .isEmpty();
  }

  @Test
  void allChecksPassUnderProxyFaultsAndIssuerLocks() throws Exception {
    BackendRun.assertPassed(BackendRun.run("s3", S3Backend::start, 8L, Duration.ofMillis(500)));
  }
}
