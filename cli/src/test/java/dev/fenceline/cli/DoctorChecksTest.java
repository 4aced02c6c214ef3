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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 8: {@code fenceline doctor} checks what {@code publish} will need without changing
 * anything, and {@code publish} names a read-only volume as the cause.
 *
 * <p>A directory nobody may write: tests may run as root, and root writes into a 0555 directory as
 * into any other (the mode bits do not stop it, and {@code Files.isWritable} says true). So as root
 * the process runs in its own mount namespace ({@code unshare -m}) in which the directory is
 * bind-mounted onto itself read-only, which stops root too and leaves the host's mounts alone; as
 * another user the directory gets mode 0555. The expected reason differs accordingly ("read-only
 * file system" or "permission denied"). Root without {@code unshare} skips.
 */
@Timeout(120) // a failure detector only
class DoctorChecksTest {

  private static final List<String> NO_UNSET = List.of();

  @TempDir Path dir;

  private Path readOnly;

  /** How the read-only directory is made: see the class comment. */
  private record ReadOnly(List<String> wrapper, String reason) {}

  private ReadOnly makeReadOnly(Path directory) throws Exception {
    if (!isRoot()) {
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-xr-xr-x"));
      readOnly = directory;
      return new ReadOnly(List.of(), "permission denied");
    }
    Assumptions.assumeTrue(
        succeeds("unshare", "-m", "true"),
        "running as root without unshare -m: no way to make a directory root cannot write");
    String script = "mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro \"$0\" && exec \"$@\"";
    return new ReadOnly(
        List.of("unshare", "-m", "sh", "-c", script, directory.toString()),
        "read-only file system");
  }

  @AfterEach
  void writableAgain() throws IOException {
    if (readOnly != null) {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  private Path config(String reportsUri, String ttl) throws IOException {
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        lease:
          ttl: %s
          holder: doctor-test
        destinations:
          reports:
            store: reports-dir
        """
            .formatted(dir.resolve("data").resolve("fenceline.db"), reportsUri, ttl));
  }

  @Test
  void aReadOnlyDirectoryIsReportedAsNotWritableAndDoctorExitsSix() throws Exception {
    Path shelf = Files.createDirectories(dir.resolve("shelf"));
    ReadOnly mode = makeReadOnly(shelf);
    Path file = config(shelf.toString(), "30s");

    CliProcess.Result result =
        CliProcess.run(
            dir, mode.wrapper(), NO_UNSET, Map.of(), "doctor", "--config", file.toString());

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(result.out())
        .contains("store reports-dir (vfs): not writable: " + shelf + " (" + mode.reason() + ")")
        .contains("  not usable: store reports-dir: not writable: " + shelf);
    assertThat(result.err()).contains("fenceline: Cannot write to store reports-dir");
  }

  @Test
  void aMissingDirectoryBelowAReadOnlyOneIsNotWritableAndNotCreated() throws Exception {
    Path shelf = Files.createDirectories(dir.resolve("shelf"));
    ReadOnly mode = makeReadOnly(shelf);
    Path file = config(shelf.resolve("reports").toString(), "30s");

    CliProcess.Result result =
        CliProcess.run(
            dir, mode.wrapper(), NO_UNSET, Map.of(), "doctor", "--config", file.toString());

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(result.out())
        .contains("store reports-dir (vfs): not writable: " + shelf + " (" + mode.reason() + ")");
  }

  @Test
  void aMistypedPathIsReportedAsWouldCreateAndDoctorCreatesNothing() throws Exception {
    Path typo = dir.resolve("reprots").resolve("nightly");
    Path file = config(typo.toString(), "30s");

    CliProcess.Result result =
        CliProcess.run(dir, List.of(), NO_UNSET, Map.of(), "doctor", "--config", file.toString());

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out())
        .contains("store reports-dir (vfs): would create directory " + typo)
        .contains(
            "store main (jdbc): would create directory "
                + dir.resolve("data")
                + ", SQLite database "
                + dir.resolve("data").resolve("fenceline.db"))
        .containsPattern("reports +vfs +FENCED_BY_STAGING +STAGED_WITH_POINTER_STORE");
    assertThat(dir.resolve("reprots")).as("the mistyped directory").doesNotExist();
    assertThat(dir.resolve("data")).as("the SQLite file's directory").doesNotExist();
  }

  @Test
  void aLeaseTtlBelowTheAdvicesFloorWarnsWithoutFailing() throws Exception {
    Path file = config(dir.resolve("reports").toString(), "10ms");

    CliProcess.Result result =
        CliProcess.run(dir, List.of(), NO_UNSET, Map.of(), "doctor", "--config", file.toString());

    assertThat(result.exitCode()).as(result.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(result.out())
        .contains("warning: lease ttl 10ms is below the 1s floor the lease advice uses");
  }

  @Test
  void publishToAReadOnlyDirectoryNamesTheReadOnlyVolume() throws Exception {
    Path shelf = Files.createDirectories(dir.resolve("shelf"));
    Files.createDirectories(shelf.resolve("existing"));
    Path payload = Files.writeString(dir.resolve("report.csv"), "day,total\n");
    ReadOnly mode = makeReadOnly(shelf);
    String because =
        mode.reason().equals("read-only file system")
            ? " is on a read-only file system (mount it read-write or choose another uri"
            : " is not writable by this user (permission denied)";

    Path existing = config(shelf.resolve("existing").toString(), "30s");
    CliProcess.Result staging =
        CliProcess.run(
            dir,
            mode.wrapper(),
            NO_UNSET,
            Map.of(),
            "publish",
            "--config",
            existing.toString(),
            "--destination",
            "reports",
            "--resource",
            "nightly-report",
            "--operation",
            "day-1",
            payload.toString());
    Path missing = config(shelf.resolve("missing").toString(), "30s");
    CliProcess.Result opening =
        CliProcess.run(
            dir,
            mode.wrapper(),
            NO_UNSET,
            Map.of(),
            "publish",
            "--config",
            missing.toString(),
            "--destination",
            "reports",
            "--resource",
            "nightly-report",
            "--operation",
            "day-1",
            payload.toString());

    assertThat(staging.exitCode())
        .as(staging.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(staging.err())
        .contains(": " + shelf.resolve("existing") + because)
        .doesNotContain("Could not create");
    assertThat(opening.exitCode())
        .as(opening.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(opening.err()).contains(": " + shelf + because).doesNotContain("Could not create");
  }

  private static boolean isRoot() throws Exception {
    Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
    String uid = new String(id.getInputStream().readAllBytes()).strip();
    id.waitFor(10, TimeUnit.SECONDS);
    return uid.equals("0");
  }

  private static boolean succeeds(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
