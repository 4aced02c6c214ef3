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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Real stalls, not a mocked clock: a child JVM runs the monitor and this test freezes it with
 * SIGSTOP for a known time. The monitor must report a pause of that length within ±20 %.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class PauseMonitorStallTest {

  private static final Duration STOP = Duration.ofMillis(1500);

  @Test
  void aProcessStoppedForASecondAndAHalfReportsAPauseOfThatLength() throws Exception {
    try (Child child = Child.start(System.getProperty("java.class.path"), "stall")) {
      assertThat(child.nextLine()).isEqualTo("READY");

      long stoppedAt = System.nanoTime();
      signal(child.pid(), "-STOP");
      // The one legitimate sleep: the stop's length is the stimulus being measured, not a way
      // to order threads.
      Thread.sleep(STOP.toMillis());
      signal(child.pid(), "-CONT");
      long stoppedFor = System.nanoTime() - stoppedAt;

      String pause = child.nextLine();
      assertThat(pause).startsWith("PAUSE ");
      long measured = Long.parseLong(pause.substring("PAUSE ".length()));
      assertThat(measured)
          .as("reported pause vs %d ms stopped", TimeUnit.NANOSECONDS.toMillis(stoppedFor))
          .isBetween((long) (stoppedFor * 0.8), (long) (stoppedFor * 1.2));

      child.send("SNAPSHOT");
      String[] snapshot = child.nextLine().split(" ");
      assertThat(snapshot[0]).isEqualTo("SNAPSHOT");
      assertThat(Long.parseLong(snapshot[1])).as("snapshot max").isEqualTo(measured);
      assertThat(Long.parseLong(snapshot[2])).as("pauses above 200 ms").isGreaterThanOrEqualTo(1);
      child.send("EXIT");
      assertThat(child.exitCode()).isZero();
    }
  }

  @Test
  void theMonitorCountersAndAdviceRunWithoutMicrometerOnTheClassPath() throws Exception {
    String withoutMicrometer =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.contains("micrometer"))
            .collect(Collectors.joining(File.pathSeparator));
    try (Child child = Child.start(withoutMicrometer, "without-micrometer")) {
      assertThat(child.nextLine()).isEqualTo("MICROMETER-ABSENT");
      assertThat(child.nextLine()).startsWith("OK ttl ");
      assertThat(child.exitCode()).isZero();
    }
  }

  private static void signal(long pid, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill %s %d", signal, pid).isZero();
  }

  /** A child JVM running {@link PauseMonitorProbe}, read line by line. */
  private static final class Child implements AutoCloseable {

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final PrintStream input;

    private Child(Process process) {
      this.process = process;
      this.input = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader out =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                  }
                } catch (IOException e) {
                  lines.add("IOException: " + e.getMessage());
                }
                lines.add("EOF");
              },
              "probe-reader");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(String classPath, String mode) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      return new Child(
          new ProcessBuilder(
                  List.of(java, "-cp", classPath, PauseMonitorProbe.class.getName(), mode))
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start());
    }

    long pid() {
      return process.pid();
    }

    String nextLine() throws InterruptedException {
      String line = lines.poll(60, TimeUnit.SECONDS);
      assertThat(line).as("a line from the probe within 60 s").isNotNull();
      return line;
    }

    void send(String line) {
      input.println(line);
    }

    int exitCode() throws InterruptedException {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the probe ended").isTrue();
      return process.exitValue();
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }
}
