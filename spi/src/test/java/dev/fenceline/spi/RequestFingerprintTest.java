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
package dev.fenceline.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

  @Test
  void pointersWhoseFieldsConcatenateAlikeHaveDifferentFingerprints() {
    // Without length prefixes both read "abcd".
    assertThat(RequestFingerprint.of(new Pointer("ab", Map.of("c", "d"))))
        .isNotEqualTo(RequestFingerprint.of(new Pointer("a", Map.of("bc", "d"))));
  }

  @Test
  void anAttributeNameIsPartOfTheFingerprint() {
    assertThat(RequestFingerprint.of(new Pointer("a", Map.of("size", "1"))))
        .isNotEqualTo(RequestFingerprint.of(new Pointer("a", Map.of("kind", "1"))));
  }

  @Test
  void aKnownSha256IsTheFingerprintOfItsBytesInAnyCase() {
    byte[] payload = "abc".getBytes(StandardCharsets.UTF_8);

    RequestFingerprint known =
        RequestFingerprint.ofSha256Hex(
            "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD");

    assertThat(known).isEqualTo(RequestFingerprint.sha256(payload));
    assertThat(known.toString())
        .isEqualTo("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }
}
