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

import dev.fenceline.cas.ControlDocument;
import dev.fenceline.spi.StoreException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A control object this version cannot read, whatever is wrong with it, fails with a {@link
 * StoreException} naming the object; it is never read as an empty or unbound state.
 */
class ControlObjectParseTest {

  private static final String SHOWN = "s3://bucket/.fenceline/pointers/control/r.json";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "null",
        "[]",
        "{\"format\":1",
        "{\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":2,\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":1.0,\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":\"1\",\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":123456789012345678901234567890,\"epoch\":3,\"issuer\":null,\"writes\":[],"
            + "\"names\":{}}",
        "{\"format\":1,\"epoch\":123456789012345678901234567890,\"issuer\":null,\"writes\":[],"
            + "\"names\":{}}",
        "{\"format\":1,\"epoch\":-1,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":1,\"epoch\":3.5,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":1,\"issuer\":null,\"writes\":[],\"names\":{}}",
        "{\"format\":1,\"epoch\":3,\"writes\":[],\"names\":{}}",
        "{\"format\":1,\"epoch\":3,\"issuer\":7,\"writes\":[],\"names\":{}}",
        "{\"format\":1,\"epoch\":3,\"issuer\":null,\"names\":{}}",
        "{\"format\":1,\"epoch\":3,\"issuer\":null,\"writes\":[1],\"names\":{}}",
        "{\"format\":1,\"epoch\":3,\"issuer\":null,\"writes\":[]}",
        "{\"format\":1,\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":[]}",
        "{\"format\":1,\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":{\"tck\":{}}}",
        "{\"format\":1,\"epoch\":3,\"issuer\":null,\"writes\":[],\"names\":{\"tck\":5}}",
      })
  void anUnreadableControlObjectIsAClearStoreExceptionNeverAnEmptyState(String json) {
    assertThatThrownBy(
            () ->
                ControlDocument.parse(
                    json.getBytes(StandardCharsets.UTF_8), S3PointerStore.stored(SHOWN)))
        .isInstanceOf(StoreException.class)
        .hasMessageStartingWith("Cannot read pointer object " + SHOWN + ": ")
        .hasMessageEndingWith(")")
        .satisfies(e -> assertThat(((StoreException) e).outcomeUnknown()).isFalse());
  }
}
