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

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.ReadmeExamples;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * The README's "publish to S3" examples, compiled from the README as they stand and run on S3Mock;
 * the S3-only example gets this test's S3Mock builder instead of {@code
 * S3Store.builder("reports-prod").region("eu-central-1")}.
 */
public class ReadmeS3ExampleTest {

  /** What the compiled README example calls instead of {@code S3Store.builder("reports-prod")}. */
  private static volatile S3Store.Builder testStoreBuilder;

  @TempDir Path directory;
  private final S3TestServer server = S3TestServer.get(Kind.S3MOCK);
  private final String bucket = server.createBucket();
  private final AtomicConditionalWrites http =
      new AtomicConditionalWrites(Apache5HttpClient.create());

  /** This test's S3Mock store builder, for the compiled README example. */
  public static S3Store.Builder testStoreBuilder() {
    return testStoreBuilder;
  }

  @Test
  void theS3OnlyExamplePublishesAndKeepsAFixedKeyCopy() throws Exception {
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static void publishDaily(LeaseIssuer issuer, Path reportFile)")
            .replacing(
                Map.of(
                    "S3Store.builder(\"reports-prod\") // credentials: the SDK's default provider"
                        + " chain\n              .region(\"eu-central-1\")",
                    ReadmeS3ExampleTest.class.getName() + ".testStoreBuilder()"))
            .compile();
    Path report = Files.writeString(directory.resolve("daily.csv"), "day,orders\n29,7\n");
    testStoreBuilder = server.storeBuilder(bucket).httpClient(http);
    try (JdbcStore issuerStore = JdbcStore.sqlite(directory.resolve("issuer.db"))) {
      ReadmeExamples.call(example, "publishDaily", issuerStore.leaseIssuer(), report);
    } finally {
      testStoreBuilder = null;
    }

    String copy =
        server
            .admin()
            .getObjectAsBytes(b -> b.bucket(bucket).key("nightly/public/daily.csv"))
            .asString(StandardCharsets.UTF_8);
    assertThat(copy).isEqualTo("day,orders\n29,7\n");
  }

  @Test
  void theS3AndJdbcExamplePublishesWithThePointerInTheDatabase() throws Exception {
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static StagedDestination reportsOnS3(S3Store s3, JdbcStore jdbcStore)")
            .compile();
    try (S3Store s3 = server.storeBuilder(bucket).prefix("nightly").build();
        JdbcStore jdbcStore = JdbcStore.sqlite(directory.resolve("pointers.db"));
        Fenceline fenceline =
            Fenceline.builder().issuer(jdbcStore.leaseIssuer()).holder("report-worker-1").build()) {
      StagedDestination reports =
          (StagedDestination) ReadmeExamples.call(example, "reportsOnS3", s3, jdbcStore);

      ResourceId daily = ResourceId.of("reports/daily");
      try (HeldLease lease = fenceline.tryAcquire(daily).orElseThrow()) {
        fenceline.register(lease, reports);
        assertThat(
                fenceline.publish(
                    lease,
                    reports,
                    OperationId.of("daily-2026-11-29"),
                    new ByteArrayInputStream("x".getBytes(StandardCharsets.UTF_8))))
            .isInstanceOf(Applied.class);
      }
      try (InputStream published = reports.open(daily)) {
        assertThat(new String(published.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("x");
      }
      assertThat(jdbcStore.pointerStore("reports").current(daily)).isPresent();
    }
  }
}
