package dev.fenceline.s3;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.staging.SmallHeapPublish;
import dev.fenceline.staging.StagedDestination;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The child JVM of {@link S3LargePublishTest}: a {@link SmallHeapPublish} through a staged
 * destination of S3 blobs (the default threshold and part size) and a SQLite pointer store, which
 * also prints the S3 requests of the publish.
 */
public final class S3LargePublish {

  private S3LargePublish() {}

  /** Arguments: payload size in bytes, seed, endpoint, bucket, working directory. */
  public static void main(String[] args) throws Exception {
    URI endpoint = URI.create(args[2]);
    String bucket = args[3];
    Path directory = Path.of(args[4]);
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
      SmallHeapPublish.publishAndReadBack(
          staged,
          pointers.id(),
          SmallHeapPublish.size(args),
          SmallHeapPublish.seed(args),
          () -> SmallHeapPublish.print("PUBLISH_REQUESTS", counted(http)));
    }
  }

  private static Map<String, Integer> counted(RecordingHttpClient http) {
    Map<String, Integer> counts = new TreeMap<>();
    http.operations().forEach(operation -> counts.merge(operation, 1, Integer::sum));
    return counts;
  }
}
