package dev.fenceline.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ConditionalWriteProbeTest {

  @ParameterizedTest
  @EnumSource(
      value = Kind.class,
      names = {"S3MOCK", "S3PROXY"})
  void anEndpointThatHonoursConditionalWritesPassesEveryCheck(Kind kind) {
    S3TestServer server = S3TestServer.get(kind);
    String bucket = server.createBucket();
    try (S3Store store = server.storeBuilder(bucket).prefix("team/reports").build()) {
      ConditionalWrites result = store.conditionalWrites();

      assertThat(result.honoured()).as(result.toString()).isTrue();
      assertThat(result.passed()).hasSize(5);
      assertThat(result.location())
          .contains("s3://" + bucket + "/team/reports at http://127.0.0.1:");
      // The probe cleans up after itself.
      assertThat(server.admin().listObjectsV2(b -> b.bucket(bucket)).contents()).isEmpty();
    }
  }

  @Test
  void anEndpointThatIgnoresConditionalWritesFailsTheFirstCheckThatOverwrites() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY_WITHOUT_CONDITIONS);
    String bucket = server.createBucket();
    try (S3Store store = server.storeBuilder(bucket).build()) {
      ConditionalWrites result = store.conditionalWrites();

      assertThat(result.honoured()).isFalse();
      assertThat(result.failure().orElseThrow())
          .contains("create-only PUT (If-None-Match: *) on an existing key")
          .contains("answered 200");
      assertThatThrownBy(
              () ->
                  result.require(
                      "open the S3 pointer store \"reports\"", "use a JDBC pointer store"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining(server.endpoint().toString())
          .hasMessageContaining("does not honour conditional writes")
          .hasMessageContaining("use a JDBC pointer store");
    }
  }

  @Test
  void aMissingBucketIsAStoreFailureNotAVerdictOnConditionalWrites() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY);
    try (S3Store store = server.storeBuilder("no-such-bucket-here").build()) {
      assertThatThrownBy(store::conditionalWrites)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("no-such-bucket-here")
          .hasMessageContaining("HTTP 404");
    }
  }
}
