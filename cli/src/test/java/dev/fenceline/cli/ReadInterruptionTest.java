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
package dev.fenceline.cli;

import static dev.fenceline.cli.StagedCli.NO_ENV;
import static dev.fenceline.cli.StagedCli.RESOURCE;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code read --output FILE} stopped by SIGTERM leaves neither a partial {@code FILE} nor its
 * hidden temporary file (it is marked for deletion at exit). The reader is frozen with SIGSTOP
 * while its temporary file exists, so the TERM provably arrives mid-read; then it is let go (CONT)
 * and must clean up as it exits.
 */
@Timeout(180) // a failure detector only
class ReadInterruptionTest {

  @TempDir Path dir;

  @Test
  void aTermMidReadLeavesNoPartialOutputAndNoTemporaryFile() throws Exception {
    Path config = StagedCli.config(dir, "", "", "");
    Path big = dir.resolve("big.bin");
    try (OutputStream out = Files.newOutputStream(big)) {
      Random random = new Random(7);
      byte[] chunk = new byte[1 << 20];
      for (int i = 0; i < 192; i++) {
        random.nextBytes(chunk);
        out.write(chunk);
      }
    }
    assertThat(StagedCli.publish(config, big, "report-1").exitCode()).isZero();
    Path outDir = Files.createDirectories(dir.resolve("out"));
    Path target = outDir.resolve("report.bin");

    try (CliProcess reader =
        CliProcess.start(
            NO_ENV,
            "read",
            "--config",
            config.toString(),
            "--destination",
            "reports",
            "--resource",
            RESOURCE,
            "--output",
            target.toString())) {
      boolean frozenMidRead = false;
      while (reader.isAlive() && !frozenMidRead) {
        if (!files(outDir).isEmpty()) {
          signal("STOP", reader.pid());
          frozenMidRead = !files(outDir).isEmpty() && !Files.exists(target);
          if (!frozenMidRead) {
            signal("CONT", reader.pid());
          }
        } else {
          Thread.onSpinWait();
        }
      }
      Assumptions.assumeTrue(
          frozenMidRead, "the read finished before it could be frozen mid-way (machine too fast)");
      signal("TERM", reader.pid());
      signal("CONT", reader.pid());
      CliProcess.Result result = reader.waitFor(Duration.ofSeconds(60));

      assertThat(result.exitCode()).as(result.transcript()).isEqualTo(143);
    }
    // The read may, rarely, finish in the moment before the JVM halts: then FILE is whole.
    assertThat(files(outDir)).as("no temporary file").allMatch(path -> path.equals(target));
    if (Files.exists(target)) {
      assertThat(Files.size(target)).as("FILE is never partial").isEqualTo(Files.size(big));
    }
  }

  private static List<Path> files(Path directory) {
    try (Stream<Path> listing = Files.list(directory)) {
      return listing.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -" + name).isZero();
  }
}
