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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./fenceline} launcher's decisions, with its functions sourced from the script in a
 * copy of the repository layout under a directory named {@code src} (a clone under {@code
 * ~/src/...}): when it rebuilds the jar, and with which build options.
 */
class LauncherScriptTest {

  private static final Instant OLD = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant JAR = OLD.plusSeconds(60);
  private static final Instant NEW = JAR.plusSeconds(60);

  @TempDir Path temp;
  private Path clone;

  @BeforeEach
  void cloneUnderASrcDirectory() throws IOException {
    clone = temp.resolve("src/work/fenceline");
    Files.createDirectories(clone);
    Files.copy(ReadmeExamples.repositoryRoot().resolve("fenceline"), clone.resolve("fenceline"));
    file("pom.xml", OLD);
    file("core/pom.xml", OLD);
    file("core/src/main/java/dev/fenceline/A.java", OLD);
    file("cli/target/fenceline.jar", JAR);
  }

  @Test
  void aCloneUnderSrcDoesNotRebuildForFilesOutsideTheSources() throws Exception {
    file("README.md", NEW);
    file("docs/cli.md", NEW);
    file("fenceline-demo/fenceline.db", NEW);
    file("fenceline-demo/src/worker-a.log", NEW);
    file("fenceline-data/reports/r.json", NEW);
    file("core/target/classes/dev/fenceline/A.class", NEW);

    assertThat(needsBuild()).as("needs_build").isFalse();
  }

  @Test
  void aNewerSourceOrPomRebuilds() throws Exception {
    file("core/src/main/java/dev/fenceline/A.java", NEW);
    assertThat(needsBuild()).as("needs_build after a source changed").isTrue();

    file("core/src/main/java/dev/fenceline/A.java", OLD);
    file("pom.xml", NEW);
    assertThat(needsBuild()).as("needs_build after the root pom changed").isTrue();
  }

  @Test
  void aMissingJarRebuilds() throws Exception {
    Files.delete(clone.resolve("cli/target/fenceline.jar"));

    assertThat(needsBuild()).as("needs_build without a jar").isTrue();
  }

  @Test
  void theBuildSkipsTheLicenseHeaderCheckAndKeepsTheTrimmedNativesOnTheirPlatforms()
      throws Exception {
    for (String platform :
        List.of(
            "Linux x86_64",
            "Linux aarch64",
            "Darwin arm64",
            "Darwin x86_64",
            "MINGW64_NT x86_64")) {
      assertThat(buildOptions(platform))
          .as("build options on " + platform)
          .contains("-Dlicense.skip=true", "-DskipTests", "package")
          .noneMatch(o -> o.startsWith("-Dfenceline.cli.trimmedNatives"));
    }
  }

  @Test
  void onAnotherPlatformTheBuildKeepsEverySqliteNative() throws Exception {
    for (String platform :
        List.of("Linux armv7l", "Linux ppc64le", "Linux riscv64", "Linux i686", "FreeBSD amd64")) {
      assertThat(buildOptions(platform))
          .as("build options on " + platform)
          .contains("-Dfenceline.cli.trimmedNatives=none", "-Dlicense.skip=true");
    }
  }

  private boolean needsBuild() throws Exception {
    Run run = bash(List.of(), "needs_build");
    assertThat(run.exit()).as("needs_build exit status (%s)", run.output()).isIn(0, 1);
    return run.exit() == 0;
  }

  /** The launcher's Maven options on a machine whose {@code uname -s} and {@code -m} are these. */
  private List<String> buildOptions(String platform) throws Exception {
    String[] osArch = platform.split(" ");
    Path bin = Files.createDirectories(temp.resolve("bin-" + osArch[0] + "-" + osArch[1]));
    Path uname = bin.resolve("uname");
    Files.writeString(
        uname,
        "#!/bin/sh\ncase \"$1\" in -s) echo '"
            + osArch[0]
            + "' ;; -m) echo '"
            + osArch[1]
            + "' ;; *) echo '"
            + osArch[0]
            + "' ;; esac\n",
        StandardCharsets.UTF_8);
    assertThat(uname.toFile().setExecutable(true)).isTrue();
    Run run = bash(List.of(bin.toString()), "add_native_options; printf '%s\\n' \"${build[@]}\"");
    assertThat(run.exit()).as("add_native_options (%s)", run.output()).isZero();
    return run.output().lines().toList();
  }

  private record Run(int exit, String output) {}

  private Run bash(List<String> pathFirst, String script) throws Exception {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add("-c");
    command.add("source ./fenceline && " + script);
    ProcessBuilder builder = new ProcessBuilder(command).directory(clone.toFile());
    builder.redirectErrorStream(true);
    if (!pathFirst.isEmpty()) {
      builder.environment().put("PATH", String.join(":", pathFirst) + ":" + System.getenv("PATH"));
    }
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("bash exits").isTrue();
    return new Run(process.exitValue(), output);
  }

  private void file(String path, Instant modified) throws IOException {
    Path file = clone.resolve(path);
    Files.createDirectories(file.getParent());
    if (!Files.exists(file)) {
      Files.writeString(file, path, StandardCharsets.UTF_8);
    }
    Files.setLastModifiedTime(file, FileTime.from(modified));
  }
}
