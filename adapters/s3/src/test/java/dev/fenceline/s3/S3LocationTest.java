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

import dev.fenceline.spi.StoreException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Which failures leave a write's outcome unknown. */
class S3LocationTest {

  private static S3Exception answered(int status, String code) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).build())
            .build();
  }

  @Test
  void aWriteAnswered5xxOrNotAnsweredHasAnUnknownOutcomeA4xxDoesNot() {
    try (S3Client client =
        S3Client.builder()
            .region(Region.US_EAST_1)
            .httpClient(Apache5HttpClient.create())
            .build()) {
      S3Location location = new S3Location(client, "reports", "", "http://127.0.0.1:1");

      StoreException internal = location.failure("put k", answered(500, "InternalError"), true);
      StoreException slowDown = location.failure("put k", answered(503, "SlowDown"), true);
      StoreException denied = location.failure("put k", answered(403, "AccessDenied"), true);
      StoreException lost =
          location.failure("put k", SdkClientException.create("Connection reset"), true);
      StoreException read = location.failure("get k", answered(500, "InternalError"), false);

      assertThat(internal.outcomeUnknown()).isTrue();
      assertThat(internal).hasMessageContaining("HTTP 500 InternalError");
      assertThat(internal).hasMessageContaining("may have been applied");
      assertThat(slowDown.outcomeUnknown()).isTrue();
      assertThat(denied.outcomeUnknown()).isFalse();
      assertThat(denied).hasMessageContaining("check the credentials");
      assertThat(lost.outcomeUnknown()).isTrue();
      assertThat(lost).hasMessageContaining("no answer from http://127.0.0.1:1");
      assertThat(read.outcomeUnknown()).isFalse();
    }
  }
}
