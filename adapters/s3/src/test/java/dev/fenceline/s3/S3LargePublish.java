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
