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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.ConfigurationException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;

/** An endpoint that ignores conditional writes gets no S3 pointer store, whatever the settings. */
class S3PointerStoreRefusalTest {

  @Test
  void anEndpointWithoutConditionalWritesGetsNoPointerStoreAndNothingIsWritten() {
    S3TestServer server = S3TestServer.get(Kind.S3PROXY_WITHOUT_CONDITIONS);
    String bucket = server.createBucket();
    try (S3Store store = server.storeBuilder(bucket).prefix("team").build()) {
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(() -> store.pointerStore("reports"))
            .isInstanceOf(ConfigurationException.class)
            .hasMessageContaining("Cannot open the S3 pointer store \"reports\"")
            .hasMessageContaining(server.endpoint().toString())
            .hasMessageContaining("does not honour conditional writes")
            .hasMessageContaining("create-only PUT (If-None-Match: *) on an existing key")
            .hasMessageContaining(
                "use S3 as a blob store with a JDBC pointer store:"
                    + " StagedDestination.builder(s3.blobStore(), jdbcStore.pointerStore(name))");
      }
      assertThat(server.admin().listObjectsV2(b -> b.bucket(bucket)).contents())
          .extracting(S3Object::key)
          .noneMatch(key -> key.contains(".fenceline/pointers"));
    }
  }
}
