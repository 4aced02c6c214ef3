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
package dev.fenceline.staging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.Payloads;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A large publish through a {@link StagedDestination} in a child JVM with a small heap, which shows
 * that the payload is streamed to the blob store and back through the verifying reader, never held
 * in memory. A test calls {@link #run}; the child's {@code main} builds its stores and calls {@link
 * #publishAndReadBack}, which prints what it measured as {@code KEY value} lines on standard
 * output.
 */
public final class SmallHeapPublish {

  private static final ResourceId RESOURCE = ResourceId.of("reports/large");

  private SmallHeapPublish() {}

  /**
   * What the child printed, by key ({@code PUBLISH_MS}, {@code READ_MS}, {@code
   * PEAK_HEAP_USED_BYTES} and any the child added), and the child's wall time seen by the test.
   */
  public record Measured(Map<String, String> values, long wallMillis) {

    /** The value the child printed for {@code key}, or null. */
    public String get(String key) {
      return values.get(key);
    }
  }

  /**
   * Runs {@code main} in a child JVM with {@code -Xmx} of {@code heap} bytes and this JVM's class
   * path; its arguments are {@code size}, {@code seed}, then {@code args}. Checks what every small
   * heap publish must show: the child ended within ten minutes with exit code 0, the publish was
   * applied, the published and the read payload have the hash of the payload of {@code size} bytes
   * generated from {@code seed}, and the child's heap was at most {@code heap}.
   */
  public static Measured run(Class<?> main, long heap, long size, long seed, String... args)
      throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx" + (heap >> 20) + "m",
                "-cp",
                System.getProperty("java.class.path"),
                main.getName(),
                Long.toString(size),
                Long.toString(seed)));
    command.addAll(List.of(args));
    long started = System.nanoTime();
    Process child =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "IOException " + e.getMessage();
              }
            });
    // Computed here while the child works; streamed, so this JVM holds no payload either.
    String expected = Payloads.sha256(Payloads.generated(size, seed));

    assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("the child finished").isTrue();
    long wall = (System.nanoTime() - started) / 1_000_000;
    Map<String, String> measured = parse(output.get(1, TimeUnit.MINUTES));
    assertThat(child.exitValue()).as("exit code, output %s", measured).isZero();
    assertThat(measured)
        .containsEntry("OUTCOME", "Applied")
        .containsEntry("PUBLISHED_SHA256", expected)
        .containsEntry("READ_SHA256", expected);
    assertThat(Long.parseLong(measured.get("MAX_HEAP_BYTES"))).isLessThanOrEqualTo(heap);
    return new Measured(measured, wall);
  }

  /** The payload size a child of {@link #run} was given. */
  public static long size(String[] args) {
    return Long.parseLong(args[0]);
  }

  /** The payload seed a child of {@link #run} was given. */
  public static long seed(String[] args) {
    return Long.parseLong(args[1]);
  }

  /**
   * In the child: publishes the payload of {@code size} bytes generated from {@code seed} through
   * {@code staged} with a token of {@code issuer}, runs {@code afterPublish}, reads the payload
   * back through the verifying reader and prints what it measured.
   */
  public static void publishAndReadBack(
      StagedDestination staged, String issuer, long size, long seed, Runnable afterPublish)
      throws IOException {
    long started = System.nanoTime();
    WriteOutcome outcome =
        staged.write(
            new FencingToken(issuer, RESOURCE, Epoch.of(1), "large-publisher"),
            OperationId.of("large-1"),
            Payloads.generated(size, seed));
    long published = System.nanoTime();
    afterPublish.run();
    String read;
    try (InputStream in = staged.open(RESOURCE)) {
      read = Payloads.sha256(in);
    }
    long verified = System.nanoTime();
    print("OUTCOME", outcome instanceof Applied ? "Applied" : outcome);
    print(
        "PUBLISHED_SHA256",
        ((Applied) outcome).receipt().attribute(StagedDestination.SHA256_ATTRIBUTE).get());
    print("READ_SHA256", read);
    print("PUBLISH_MS", (published - started) / 1_000_000);
    print("READ_MS", (verified - published) / 1_000_000);
    print("MAX_HEAP_BYTES", Runtime.getRuntime().maxMemory());
    print("PEAK_HEAP_USED_BYTES", peakHeapUsed());
  }

  /** In the child: prints one measured value for the test, as a {@code KEY value} line. */
  public static void print(String key, Object value) {
    System.out.println(key + " " + value);
  }

  private static long peakHeapUsed() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  private static Map<String, String> parse(String output) {
    Map<String, String> values = new HashMap<>();
    for (String line : output.split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0) {
        values.put(line.substring(0, space), line.substring(space + 1).trim());
      }
    }
    return values;
  }
}
