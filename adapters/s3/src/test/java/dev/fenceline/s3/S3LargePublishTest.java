package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.tck.Payloads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large publish through {@code StagedDestination(S3BlobStore, JDBC pointer store)} to S3Mock in a
 * JVM with a small heap: the payload is streamed in 8 MiB parts and read back through the verifying
 * reader, never held in memory. By default 192 MiB in {@code -Xmx96m} (twice the heap, so a store
 * that buffered the payload fails); the full 1 GiB in {@code -Xmx128m} takes over a minute on a
 * small machine (S3Mock writes the parts, then joins them), so it runs when asked: {@code mvn
 * verify -pl adapters/s3 -am -Dfenceline.s3.large-publish=true -Dtest=S3LargePublishTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class S3LargePublishTest {

  private static final boolean FULL = Boolean.getBoolean("fenceline.s3.large-publish");
  private static final long SIZE = FULL ? 1L << 30 : 192L << 20;
  private static final long HEAP = FULL ? 128L << 20 : 96L << 20;
  private static final long SEED = 20261027;

  @TempDir Path directory;

  @Test
  void aLargePublishToS3RunsInASmallHeap() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    String java = ProcessHandle.current().info().command().orElse("java");
    long started = System.nanoTime();
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xmx" + (HEAP >> 20) + "m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    S3LargePublish.class.getName(),
                    server.endpoint().toString(),
                    bucket,
                    directory.toString(),
                    Long.toString(SIZE),
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
    String expected = Payloads.sha256(Payloads.generated(SIZE, SEED));

    assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("the child finished").isTrue();
    long wall = (System.nanoTime() - started) / 1_000_000;
    Map<String, String> measured = parse(output.get(1, TimeUnit.MINUTES));
    assertThat(child.exitValue()).as("exit code, output %s", measured).isZero();
    assertThat(measured)
        .containsEntry("OUTCOME", "Applied")
        .containsEntry("PUBLISHED_SHA256", expected)
        .containsEntry("READ_SHA256", expected)
        // In 8 MiB parts; the pointer lives in SQLite.
        .containsEntry(
            "PUBLISH_REQUESTS",
            "{CompleteMultipartUpload=1, CreateMultipartUpload=1, UploadPart="
                + SIZE / (8 << 20)
                + "}");
    assertThat(Long.parseLong(measured.get("MAX_HEAP_BYTES"))).isLessThanOrEqualTo(HEAP);
    assertThat(
            server.admin().listObjectsV2(b -> b.bucket(bucket)).contents().stream()
                .mapToLong(object -> object.size())
                .sum())
        .isEqualTo(SIZE);
    System.out.printf(
        "%d MiB staged publish to S3Mock with -Xmx%dm: publish %s ms, verified read %s ms, peak"
            + " heap %d MiB, child wall time %d ms%n",
        SIZE >> 20,
        HEAP >> 20,
        measured.get("PUBLISH_MS"),
        measured.get("READ_MS"),
        Long.parseLong(measured.get("PEAK_HEAP_USED_BYTES")) >> 20,
        wall);
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
