package dev.fenceline.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.tck.Payloads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1 GiB publish through the staged destination in a JVM capped at {@code -Xmx128m}: the payload
 * is streamed to local files and back through the verifying reader, never held in memory.
 */
class LargePublishTest {

  private static final long ONE_GIB = 1L << 30;
  private static final long SEED = 20261027;

  @TempDir Path directory;

  @Test
  void aOneGibPublishRunsIn128MibOfHeap() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xmx128m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    LargePublish.class.getName(),
                    directory.toString(),
                    Long.toString(ONE_GIB),
                    Long.toString(SEED)))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
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
    String expected = Payloads.sha256(Payloads.generated(ONE_GIB, SEED));

    assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("the child finished").isTrue();
    Map<String, String> measured = parse(output.get(1, TimeUnit.MINUTES));
    assertThat(child.exitValue()).as("exit code, output %s", measured).isZero();
    assertThat(measured)
        .containsEntry("OUTCOME", "Applied")
        .containsEntry("PUBLISHED_SHA256", expected)
        .containsEntry("READ_SHA256", expected);
    assertThat(Long.parseLong(measured.get("MAX_HEAP_BYTES"))).isLessThanOrEqualTo(128L << 20);
    try (var blobs = Files.walk(directory.resolve("blobs"))) {
      assertThat(blobs.filter(Files::isRegularFile).mapToLong(LargePublishTest::size).sum())
          .isEqualTo(ONE_GIB);
    }
    System.out.printf(
        "1 GiB staged publish with -Xmx128m: publish %s ms, verified read %s ms, peak heap %d MiB%n",
        measured.get("PUBLISH_MS"),
        measured.get("READ_MS"),
        Long.parseLong(measured.get("PEAK_HEAP_USED_BYTES")) >> 20);
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
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
