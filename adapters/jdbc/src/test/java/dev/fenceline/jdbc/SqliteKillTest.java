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
package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SQLite runs inside the writer's process, so "killing the database" mid-step means killing that
 * process with SIGKILL while it holds the write lock. The next process must find the step either
 * fully committed or fully absent, and the lock free.
 */
class SqliteKillTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  @TempDir Path directory;

  @ParameterizedTest
  @EnumSource(
      value = FencingStep.class,
      names = {"AFTER_EPOCH_CHECK", "AFTER_APPLY"})
  void aWriterKilledBeforeItsCommitLeavesNothingAndReleasesTheLock(FencingStep step)
      throws Exception {
    Path file = directory.resolve("fenceline.db");
    try (JdbcStore store = JdbcStore.sqlite(file)) {
      store
          .pointerStore("reports")
          .write(
              new FencingToken("test-issuer", REPORT, Epoch.of(33), "worker-a"),
              OperationId.of("v1"),
              Pointer.to("version 1"));
    }

    killWriterAt(file, step);

    try (JdbcStore store = JdbcStore.sqlite(file)) {
      JdbcPointerStore pointers = store.pointerStore("reports");
      assertThat(pointers.lookup(REPORT, OperationId.of("v2"))).isEmpty();
      assertThat(pointers.current(REPORT).map(PointerState::version)).contains(1L);
      assertThat(pointers.current(REPORT).map(s -> s.pointer().target())).contains("version 1");
      assertThat(pointers.currentEpoch(REPORT)).isEqualTo(Epoch.of(33));
      assertThat(
              pointers.write(
                  new FencingToken("test-issuer", REPORT, Epoch.of(34), "worker-c"),
                  OperationId.of("v2"),
                  Pointer.to("version 2 again")))
          .as("the killed writer's lock is gone")
          .isInstanceOf(Applied.class);
    }
  }

  @Test
  void aWriterKilledAfterItsCommitLeavesBothTheChangeAndTheRecord() throws Exception {
    Path file = directory.resolve("fenceline.db");
    JdbcStore.sqlite(file).close();

    killWriterAt(file, FencingStep.AFTER_COMMIT);

    try (JdbcStore store = JdbcStore.sqlite(file)) {
      assertThat(store.pointerStore("reports").lookup(REPORT, OperationId.of("v2"))).isPresent();
      assertThat(store.pointerStore("reports").current(REPORT).map(s -> s.pointer().target()))
          .contains("version 2");
    }
  }

  private static void killWriterAt(Path file, FencingStep step) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process writer =
        new ProcessBuilder(
                List.of(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    SqliteWriterProcess.class.getName(),
                    file.toString(),
                    step.name()))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try {
      CompletableFuture<String> firstLine =
          CompletableFuture.supplyAsync(
              () -> {
                try (BufferedReader out =
                    new BufferedReader(
                        new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
                  return out.readLine();
                } catch (IOException e) {
                  return "IOException: " + e.getMessage();
                }
              });
      assertThat(firstLine.get(60, TimeUnit.SECONDS)).isEqualTo("PAUSED");
      writer.destroyForcibly(); // SIGKILL: no shutdown hooks, no rollback by the process
      assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(writer.exitValue()).isEqualTo(137);
    } finally {
      writer.destroyForcibly();
    }
  }
}
