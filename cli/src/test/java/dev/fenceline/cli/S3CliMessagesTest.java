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

import dev.fenceline.s3.S3AdapterFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 parts of the command as a user without AWS credentials meets them, in separate processes:
 * one line that says how to give credentials, and no SLF4J noise from the libraries.
 */
@Timeout(120) // a failure detector only
class S3CliMessagesTest {

  @TempDir Path dir;

  /** An environment without AWS credentials anywhere the SDK's default chain looks. */
  private Map<String, String> noCredentials() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty"), "");
    return Map.ofEntries(
        Map.entry("HOME", dir.toString()),
        Map.entry("XDG_CACHE_HOME", dir.resolve("cache").toString()),
        Map.entry("AWS_ACCESS_KEY_ID", ""),
        Map.entry("AWS_SECRET_ACCESS_KEY", ""),
        Map.entry("AWS_SESSION_TOKEN", ""),
        Map.entry("AWS_PROFILE", "default"),
        Map.entry("AWS_SHARED_CREDENTIALS_FILE", empty.toString()),
        Map.entry("AWS_CONFIG_FILE", empty.toString()),
        Map.entry("AWS_WEB_IDENTITY_TOKEN_FILE", ""),
        Map.entry("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", ""),
        Map.entry("AWS_CONTAINER_CREDENTIALS_FULL_URI", ""),
        Map.entry("AWS_EC2_METADATA_DISABLED", "true"));
  }

  private Path config() throws Exception {
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          bucket:
            type: s3
            bucket: reports
            endpoint: http://127.0.0.1:9
            path-style: true
        issuer: main
        destinations:
          reports:
            store: bucket
        """
            .formatted(dir.resolve("fenceline.db")));
  }

  @Test
  void doctorWithoutAwsCredentialsSaysSoInOneLine() throws Exception {
    CliProcess.Result result =
        CliProcess.run(noCredentials(), "doctor", "--config", config().toString());

    assertThat(result.exitCode())
        .as(result.transcript())
        .isEqualTo(ExitCode.STORE_UNREACHABLE.code());
    assertThat(result.errLines())
        .as(result.transcript())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("fenceline: Cannot ")
        .contains("no AWS credentials found (nothing was sent; give them with AWS_ACCESS_KEY_ID")
        .contains("AWS_PROFILE or ~/.aws/credentials", "instance or container role")
        .doesNotContain("providers in the chain", "reachable")
        .hasSizeLessThan(400);
  }

  @Test
  void noSlf4jNoiseFromStatusOrDoctor() throws Exception {
    Path file = config();
    Map<String, String> environment = noCredentials();

    CliProcess.Result status =
        CliProcess.run(environment, "status", "--config", file.toString(), "nightly-report");
    CliProcess.Result doctor = CliProcess.run(environment, "doctor", "--config", file.toString());

    assertThat(status.exitCode()).as(status.transcript()).isEqualTo(ExitCode.OK.code());
    assertThat(status.err()).as(status.transcript()).doesNotContain("SLF4J");
    // doctor loads the AWS SDK (which logs through SLF4J) and fails on the missing credentials.
    assertThat(doctor.err()).as(doctor.transcript()).doesNotContain("SLF4J").contains("AWS");
  }

  @Test
  void doctorRecheckUsesTheS3AdaptersProperty() {
    assertThat(S3ProbeRecheck.PROPERTY).isEqualTo(S3AdapterFactory.RECHECK_PROPERTY);
  }
}
