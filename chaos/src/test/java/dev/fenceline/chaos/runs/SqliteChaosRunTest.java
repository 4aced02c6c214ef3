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

import dev.fenceline.chaos.StoreFaults;
import dev.fenceline.chaos.backends.ChaosBackend;
import dev.fenceline.chaos.history.Event;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chaos run on a SQLite file (issuer and pointer store) with files in a local directory, under
 * pauses, kills and {@code store-lock} (another connection holds the database's write lock).
 */
class SqliteChaosRunTest {

  @AfterEach
  void nothingLeftRunning() {
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
        .as("processes left behind by the run")
        .isEmpty();
  }

  @Test
  void allChecksPassUnderPausesKillsAndLocksWithThreeLoopsPerWorker() throws Exception {
    BackendRun.Outcome outcome =
        BackendRun.run("sqlite", SqliteBackend::new, 1L, Duration.ofMillis(800), 3);
    BackendRun.assertPassed(outcome);

    // Each worker JVM ran three loops, each its own process with its own holder: w0/1 ... w3/3
    // (and w1.2/1 ... after a restart). Which loops get to write in a short run depends on the
    // machine's load, so the test asks for what threads guarantee: every loop number wrote in some
    // worker, and some worker JVM (one incarnation) wrote from more than one of its loops.
    Map<String, Set<String>> loopsByJvm = new TreeMap<>();
    for (Event e : outcome.history()) {
      if (e.type() == Event.Type.INVOKE && Event.WRITE.equals(e.f())) {
        String[] jvmAndLoop = e.process().split("/", 2);
        loopsByJvm.computeIfAbsent(jvmAndLoop[0], jvm -> new TreeSet<>()).add(jvmAndLoop[1]);
      }
    }
    assertThat(loopsByJvm.values().stream().flatMap(Set::stream).distinct().sorted().toList())
        .as("the loops that wrote, by loop number, in %s", loopsByJvm)
        .containsExactly("1", "2", "3");
    assertThat(loopsByJvm.values())
        .as("a worker JVM whose loops wrote side by side, in %s", loopsByJvm)
        .anyMatch(loops -> loops.size() >= 2);
    assertThat(outcome.history())
        .filteredOn(e -> e.type() == Event.Type.META)
        .singleElement()
        .satisfies(meta -> assertThat(meta.meta()).containsEntry("threads", "3"));
    // A kill in a write names the loop that was writing; the kill ended the whole JVM.
    assertThat(outcome.history())
        .anyMatch(
            e ->
                e.type() == Event.Type.FAULT
                    && e.fault().equals("kill")
                    && e.index() != null
                    && e.target().matches("w\\d+(\\.\\d+)?/[123]"));
  }

  /** A SQLite file and a directory; its store faults come from the YAML (the lock). */
  private static final class SqliteBackend implements ChaosBackend {
    private final Path dir;

    SqliteBackend(Path dir) {
      this.dir = dir.toAbsolutePath();
      try {
        Files.createDirectories(this.dir.resolve("files"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String name() {
      return "sqlite";
    }

    @Override
    public Path writeConfig(Path to) {
      Path yaml = to.resolve("fenceline.yaml");
      try {
        Files.writeString(
            yaml,
            """
            stores:
              main:
                type: jdbc
                url: "jdbc:sqlite:%s"
                lock-timeout: 2s
              files:
                type: vfs
                uri: "%s"
            issuer: main
            destinations:
              reports:
                store: files
            """
                .formatted(dir.resolve("fenceline.db"), dir.resolve("files")),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return yaml;
    }

    @Override
    public String destination() {
      return "reports";
    }

    @Override
    public StoreFaults storeFaults() {
      return NONE;
    }

    @Override
    public Map<String, String> endpoints() {
      return Map.of("sqlite", dir.resolve("fenceline.db").toString());
    }

    @Override
    public void close() {}
  }

  private static final StoreFaults NONE =
      new StoreFaults() {
        @Override
        public List<String> kinds() {
          return List.of();
        }

        @Override
        public String inject(String kind, Random random) {
          throw new IllegalArgumentException("No store faults of its own: " + kind);
        }

        @Override
        public void heal() {}

        @Override
        public void close() {}
      };
}
