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
package dev.fenceline.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.TokenKeys;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TokenHeaderFormatTest {

  private static final TokenKeys KEYS =
      TokenKeys.builder()
          .key("k1", "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8))
          .build();

  @Test
  void theFullFormPercentEncodesEveryFieldAndDecodesBackToTheSameToken() {
    FencingToken token =
        new FencingToken("jdbc-3f2a:x", ResourceId.of("reports/nightly"), Epoch.of(34), "b@h;1 é");

    String header = TokenHeaderFormat.FULL.encode(token);

    assertThat(header)
        .isEqualTo(
            "v1;issuer=jdbc-3f2a%3Ax;resource=reports%2Fnightly;epoch=34;holder=b%40h%3B1%20%C3%A9");
    assertThat(TokenHeaderFormat.decodeFull(header)).isEqualTo(token);
    FencingToken signed = KEYS.sign(token);
    String signedHeader = TokenHeaderFormat.FULL.encode(signed);
    assertThat(signedHeader).matches("v1;.*;signature=hmac-sha256%3Ak1%3A[A-Za-z0-9_-]+");
    assertThat(TokenHeaderFormat.decodeFull(signedHeader)).isEqualTo(signed);
  }

  @Test
  void theCompactFormIsResourceAndEpochOnly() {
    FencingToken token = KEYS.sign(new FencingToken("i", ResourceId.of("a/b"), Epoch.of(7), "w"));

    assertThat(TokenHeaderFormat.COMPACT.encode(token)).isEqualTo("a/b:7");
  }

  @Test
  void malformedHeadersAreRefusedWithoutShowingTheSignature() {
    String signature = "hmac-sha256%3Ak1%3ASECRETMAC";
    for (String header :
        new String[] {
          "v2;issuer=i;resource=r;epoch=1;holder=h",
          "v1;resource=r;issuer=i;epoch=1;holder=h",
          "v1;issuer=i;resource=r;epoch=01;holder=h",
          "v1;issuer=i;resource=r;epoch=0;holder=h",
          "v1;issuer=i;resource=r;epoch=99999999999999999999;holder=h",
          "v1;issuer=i;resource=r;epoch=1;holder=h%2",
          "v1;issuer=i;resource=r;epoch=1;holder=%61",
          "v1;issuer=i;resource=r;epoch=1;holder=h/x;signature=" + signature + "/",
          "v1;issuer=i;resource=r;epoch=1;holder=%FF",
          "v1;issuer=i;resource=..;epoch=1;holder=h",
        }) {
      assertThatThrownBy(() -> TokenHeaderFormat.decodeFull(header))
          .as(header)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Cannot decode fencing token header: ")
          .hasMessageNotContaining("SECRETMAC");
    }
  }
}
