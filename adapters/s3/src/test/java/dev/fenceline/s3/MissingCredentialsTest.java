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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.StoreException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;

/**
 * No credentials anywhere: the SDK's provider chain fails before any request with a 1.5 KB dump of
 * every provider it tried. The store says so in one line, with the ways to give credentials, and as
 * a known failure (nothing was sent), also for writes.
 */
class MissingCredentialsTest {

  @TempDir Path dir;

  /** The SDK's own chain over a profile file without credentials: its real failure. */
  private AwsCredentialsProviderChain noCredentials() throws Exception {
    Path empty = Files.writeString(dir.resolve("credentials"), "");
    return AwsCredentialsProviderChain.of(
        ProfileCredentialsProvider.builder()
            .profileFile(
                ProfileFile.builder().content(empty).type(ProfileFile.Type.CREDENTIALS).build())
            .profileName("default")
            .build());
  }

  private S3Store store(S3TestServer server, String bucket) throws Exception {
    return S3Store.builder(bucket)
        .endpoint(server.endpoint())
        .pathStyle(true)
        .region("us-east-1")
        .credentials(noCredentials())
        .build();
  }

  @Test
  void aPutWithoutCredentialsSaysSoInOneLineAndChangedNothing() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    try (S3Store store = store(server, bucket)) {
      StoreException failure =
          catchThrowableOfType(
              StoreException.class,
              () ->
                  store
                      .blobStore()
                      .put(
                          BlobKey.of("reports/a.csv"),
                          new ByteArrayInputStream("a".getBytes(StandardCharsets.UTF_8))));

      assertThat(failure.getMessage())
          .startsWith("Cannot put s3://" + bucket + "/reports/a.csv: no AWS credentials found")
          .contains("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE")
          .contains("~/.aws/credentials", "instance or container role")
          .doesNotContain("providers in the chain", "reachable", "may have been applied")
          .hasSizeLessThan(300);
      // Known failure: the credentials were missing before anything was sent.
      assertThat(failure.outcomeUnknown()).isFalse();
      assertThat(server.admin().listObjectsV2(b -> b.bucket(bucket)).contents()).isEmpty();
    }
  }

  @Test
  void theProbeWithoutCredentialsSaysSo() throws Exception {
    S3TestServer server = S3TestServer.get(Kind.S3MOCK);
    String bucket = server.createBucket();
    try (S3Store store = store(server, bucket)) {
      StoreException failure = catchThrowableOfType(StoreException.class, store::conditionalWrites);

      assertThat(failure.getMessage())
          .contains(
              ": no AWS credentials found (nothing was sent; give them with AWS_ACCESS_KEY_ID")
          .doesNotContain("providers in the chain", "check that");
      assertThat(failure.outcomeUnknown()).isFalse();
    }
  }
}
