package dev.fenceline.s3;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.Payloads;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Publishes a generated payload through a staged destination (S3 blobs with the default threshold
 * and part size, a SQLite pointer store) and reads it back through the verifying reader. Run in a
 * child JVM with a small heap by {@link S3LargePublishTest}; prints what it measured.
 */
public final class S3LargePublish {

  private S3LargePublish() {}

  /** Arguments: endpoint, bucket, working directory, payload size in bytes, seed. */
  public static void main(String[] args) throws Exception {
    URI endpoint = URI.create(args[0]);
    String bucket = args[1];
    Path directory = Path.of(args[2]);
    long size = Long.parseLong(args[3]);
    long seed = Long.parseLong(args[4]);
    ResourceId resource = ResourceId.of("reports/large");
    try (RecordingHttpClient http = new RecordingHttpClient();
        JdbcStore pointers = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        S3Store s3 =
            S3Store.builder(bucket)
                .endpoint(endpoint)
                .pathStyle(true)
                .region("us-east-1")
                .credentials(
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(http)
                .build()) {
      StagedDestination staged =
          StagedDestination.builder(s3.blobStore(), pointers.pointerStore("reports")).build();
      long started = System.nanoTime();
      WriteOutcome outcome =
          staged.write(
              new FencingToken(pointers.id(), resource, Epoch.of(1), "large-publisher"),
              OperationId.of("large-1"),
              Payloads.generated(size, seed));
      long published = System.nanoTime();
      Map<String, Integer> publishRequests = counted(http);
      String read;
      try (InputStream in = staged.open(resource)) {
        read = Payloads.sha256(in);
      }
      long verified = System.nanoTime();
      System.out.println("OUTCOME " + (outcome instanceof Applied ? "Applied" : outcome));
      System.out.println(
          "PUBLISHED_SHA256 "
              + ((Applied) outcome).receipt().attribute(StagedDestination.SHA256_ATTRIBUTE).get());
      System.out.println("READ_SHA256 " + read);
      System.out.println("PUBLISH_REQUESTS " + publishRequests);
      System.out.println("PUBLISH_MS " + (published - started) / 1_000_000);
      System.out.println("READ_MS " + (verified - published) / 1_000_000);
      System.out.println("MAX_HEAP_BYTES " + Runtime.getRuntime().maxMemory());
      System.out.println("PEAK_HEAP_USED_BYTES " + peakHeapUsed());
    }
  }

  private static Map<String, Integer> counted(RecordingHttpClient http) {
    Map<String, Integer> counts = new TreeMap<>();
    http.operations().forEach(operation -> counts.merge(operation, 1, Integer::sum));
    return counts;
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
}
