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

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: usage text, and exit status 2 with a message naming the bad argument. */
class MainTest {

  @TempDir Path dir;

  @Test
  void unknownCommandIsAUsageErrorNamingIt() {
    Result result = run("frobnicate");

    assertThat(result.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(result.err())
        .contains("Cannot run command \"frobnicate\"")
        .contains("fenceline help");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void unknownOptionIsAUsageErrorNamingIt() {
    Result result = run("demo", "--ttl", "5");

    assertThat(result.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(result.err()).contains("unknown option \"--ttl\"").contains("--ttl-millis");
  }

  @Test
  void malformedValueIsAUsageErrorNamingIt() {
    Result notANumber = run("demo", "--ttl-millis", "soon");
    Result outOfRange = run("demo", "--ttl-millis=5");
    Result missing = run("demo", "--dir");

    assertThat(notANumber.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(notANumber.err()).contains("\"soon\"").contains("e.g. --ttl-millis 1500");
    assertThat(outOfRange.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(outOfRange.err()).contains("--ttl-millis 5").contains("between 500 and 60000");
    assertThat(missing.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(missing.err()).contains("--dir").contains("needs a value");
  }

  @Test
  void directoryThatIsAFileIsAUsageError() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");

    Result result = run("demo", "--dir", file.toString());

    assertThat(result.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(result.err()).contains(file.toString()).contains("not a directory");
  }

  @Test
  void helpAndNoArgumentsPrintUsage() {
    for (String[] args : new String[][] {{}, {"help"}, {"--help"}, {"demo", "--help"}}) {
      Result result = run(args);

      assertThat(result.status()).isEqualTo(Main.EXIT_OK);
      assertThat(result.out()).contains("Usage: fenceline").contains("demo").contains("--dir");
      assertThat(result.out()).doesNotContain("worker --");
      assertThat(result.out()).contains("publish", "run", "doctor", "status", "Exit status:");
      for (ExitCode code : ExitCode.values()) {
        // A long description wraps onto the next lines of the table.
        assertThat(result.out().replaceAll("\\s+", " "))
            .contains(" " + code.code() + " " + code.description());
      }
      assertThat(result.err()).isEmpty();
    }
  }

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream outStream = new PrintStream(out, true, UTF_8);
        PrintStream errStream = new PrintStream(err, true, UTF_8)) {
      status = Main.run(args, outStream, errStream);
    }
    return new Result(status, out.toString(UTF_8), err.toString(UTF_8));
  }

  private record Result(int status, String out, String err) {}
}
