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
package dev.fenceline.core.monitor;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.tck.ReadmeExamples;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The README's lease-advice example, compiled from the README as it stands and run (with a short
 * workload instead of ten minutes of yours).
 */
class ReadmeMonitorExampleTest {

  @Test
  void theReadmeExampleGivesAdviceWithItsReasoning() throws Exception {
    Class<?> example =
        ReadmeExamples.loadDocs().containing("static void adviseLeaseTtl(").compile();
    InMemoryLeaseIssuer issuer =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), new MutableClock(Instant.EPOCH));
    AtomicBoolean workloadRan = new AtomicBoolean();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream standardOutput = System.out;
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-1").build()) {
      System.setOut(new PrintStream(printed, true, UTF_8));
      ReadmeExamples.call(
          example, "adviseLeaseTtl", fenceline, (Runnable) () -> workloadRan.set(true));
    } finally {
      System.setOut(standardOutput);
    }

    assertThat(workloadRan).isTrue();
    assertThat(printed.toString(UTF_8)).contains("not a universal bound");
  }
}
