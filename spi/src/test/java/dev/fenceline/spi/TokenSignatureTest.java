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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The signature's wire format and the checks that keep a forged or reshaped one out. */
class TokenSignatureTest {

  private static final byte[] KEY =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private static FencingToken token(long epoch, String holder) {
    return new FencingToken("jdbc-1", RESOURCE, Epoch.of(epoch), holder);
  }

  /**
   * Issuers and destinations of different versions must agree on the bytes signed: the format is
   * {@code hmac-sha256:<key-id>:<base64url MAC>} over the length-prefixed fields {@code
   * fenceline-token-v1}, issuer, resource, epoch, holder.
   */
  @Test
  void theSignatureIsAnHmacOverLengthPrefixedFields() throws Exception {
    TokenKeys keys = TokenKeys.builder().key("k1", KEY).build();

    String signature = keys.sign(token(33, "worker-a")).signature().orElseThrow();

    ByteArrayOutputStream signed = new ByteArrayOutputStream();
    for (String field :
        new String[] {"fenceline-token-v1", "jdbc-1", "reports/nightly", "33", "worker-a"}) {
      byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
      signed.writeBytes((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
      signed.writeBytes(bytes);
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
    String expected =
        Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(signed.toByteArray()));
    assertThat(signature).isEqualTo("hmac-sha256:k1:" + expected);
  }

  @Test
  void aSignatureDoesNotCarryOverToTokensWhoseFieldsConcatenateAlike() {
    TokenKeys keys = TokenKeys.builder().key("k1", KEY).build();
    String signature = keys.sign(token(33, "1w")).signature().orElseThrow();
    // "33" + "1w" and "331" + "w" are the same characters; only the lengths tell them apart.
    FencingToken shifted =
        new FencingToken("jdbc-1", RESOURCE, Epoch.of(331), "w", Optional.of(signature));

    assertThatThrownBy(() -> keys.verify(shifted, "register"))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify with key k1");
  }

  @Test
  void aValidMacUnderAnotherSchemeOrWithExtraPartsIsRefused() {
    TokenKeys keys = TokenKeys.builder().key("k1", KEY).build();
    FencingToken signed = keys.sign(token(33, "worker-a"));
    String mac = signed.signature().orElseThrow().substring("hmac-sha256:k1:".length());

    for (String reshaped :
        new String[] {"hmac-md5:k1:" + mac, "hmac-sha256:k1:" + mac + ":extra", "k1:" + mac}) {
      assertThatThrownBy(() -> keys.verify(token(33, "worker-a").withSignature(reshaped), "write"))
          .as(reshaped)
          .isInstanceOf(UntrustedTokenException.class)
          .hasMessageContaining("is not of the form hmac-sha256:<key-id>:<mac>");
    }
    assertThatCode(() -> keys.verify(signed, "write")).doesNotThrowAnyException();
  }

  @Test
  void aKeyIdIsAddedOnceAndOnlyAnAddedKeySigns() {
    TokenKeys.Builder builder = TokenKeys.builder().key("k1", KEY);

    assertThatThrownBy(() -> builder.key("k1", new byte[32]))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Cannot add token key k1: the ID is already used (give each key its own ID)");
    assertThatThrownBy(() -> builder.signWith("k2"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Cannot sign with token key \"k2\": no such key was added (known: k1)");
    // The refused key did not replace the first one.
    TokenKeys keys = builder.build();
    assertThatCode(
            () ->
                keys.verify(
                    TokenKeys.builder().key("k1", KEY).build().sign(token(1, "a")), "write"))
        .doesNotThrowAnyException();
  }
}
