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

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokenTrustTest {

  private static final byte[] KEY_1 =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final byte[] KEY_2 =
      "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private static FencingToken token(long epoch) {
    return new FencingToken("jdbc-1", RESOURCE, Epoch.of(epoch), "worker-a");
  }

  @Test
  void aSignedTokenVerifiesWithTheSameKey() {
    TokenKeys keys = TokenKeys.builder().key("k1", KEY_1).build();

    FencingToken signed = keys.sign(token(33));

    assertThat(signed.signature())
        .hasValueSatisfying(s -> assertThat(s).startsWith("hmac-sha256:k1:"));
    assertThatCode(() -> keys.verify(signed, "write")).doesNotThrowAnyException();
  }

  @Test
  void anUnsignedTokenIsRefused() {
    TokenKeys keys = TokenKeys.builder().key("k1", KEY_1).build();

    assertThatThrownBy(() -> keys.verify(token(33), "write report-1"))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("Cannot write report-1 with token reports/nightly@33 (worker-a)")
        .hasMessageContaining("unsigned");
  }

  @Test
  void everyAlteredFieldBreaksTheSignature() {
    TokenKeys keys = TokenKeys.builder().key("k1", KEY_1).build();
    FencingToken signed = keys.sign(token(33));
    String signature = signed.signature().orElseThrow();
    FencingToken[] forged = {
      new FencingToken(
          "jdbc-1", RESOURCE, Epoch.of(Long.MAX_VALUE), "worker-a", Optional.of(signature)),
      new FencingToken("jdbc-2", RESOURCE, Epoch.of(33), "worker-a", Optional.of(signature)),
      new FencingToken(
          "jdbc-1",
          ResourceId.of("reports/other"),
          Epoch.of(33),
          "worker-a",
          Optional.of(signature)),
      new FencingToken("jdbc-1", RESOURCE, Epoch.of(33), "worker-b", Optional.of(signature)),
    };
    for (FencingToken token : forged) {
      assertThatThrownBy(() -> keys.verify(token, "register"))
          .as("%s", token)
          .isInstanceOf(UntrustedTokenException.class)
          .hasMessageContaining("does not verify with key k1");
    }
  }

  @Test
  void aTokenSignedWithAnotherKeyOrGarbageIsRefused() {
    TokenKeys issuer = TokenKeys.builder().key("k1", KEY_2).build();
    TokenKeys destination = TokenKeys.builder().key("k1", KEY_1).build();

    assertThatThrownBy(() -> destination.verify(issuer.sign(token(33)), "write"))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify");
    assertThatThrownBy(
            () -> destination.verify(token(33).withSignature("hmac-sha256:k1:!!"), "write"))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("does not verify");
    assertThatThrownBy(() -> destination.verify(token(33).withSignature("nonsense"), "write"))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("not of the form");
    assertThatThrownBy(
            () ->
                destination.verify(
                    TokenKeys.builder().key("k9", KEY_1).build().sign(token(33)), "write"))
        .isInstanceOf(UntrustedTokenException.class)
        .hasMessageContaining("key ID \"k9\", which this destination does not know (known: k1;");
  }

  @Test
  void rotationVerifiesOldAndNewKeysAndSignsWithTheChosenOne() {
    TokenKeys old = TokenKeys.builder().key("2026-10", KEY_1).build();
    TokenKeys rotated =
        TokenKeys.builder().key("2026-10", KEY_1).key("2026-11", KEY_2).signWith("2026-11").build();

    assertThatCode(() -> rotated.verify(old.sign(token(1)), "write")).doesNotThrowAnyException();
    assertThat(rotated.sign(token(2)).signature().orElseThrow()).contains(":2026-11:");
    assertThatCode(() -> rotated.verify(rotated.sign(token(2)), "write"))
        .doesNotThrowAnyException();
  }

  @Test
  void keysAreValidatedAndNeverShown() {
    assertThatThrownBy(() -> TokenKeys.builder().key("k1", new byte[16]))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("16 bytes, fewer than 32");
    assertThatThrownBy(() -> TokenKeys.builder().key("bad id", KEY_1))
        .hasMessageContaining("\"bad id\"");
    assertThatThrownBy(() -> TokenKeys.builder().key("a", KEY_1).key("b", KEY_2).build())
        .hasMessageContaining("call signWith(id)");
    assertThatThrownBy(() -> TokenKeys.builder().build()).hasMessageContaining("no key was added");
    TokenKeys keys = TokenKeys.builder().key("k1", KEY_1).build();
    assertThat(keys.toString()).isEqualTo("TokenKeys[keys=[k1], signing=k1]");
    assertThat(keys.sign(token(3)).toString()).doesNotContain("hmac");
  }

  @Test
  void issuerIdentitiesAndDestinationNamesAreValidated() {
    assertThatThrownBy(() -> new FencingToken("", RESOURCE, Epoch.of(1), "a"))
        .hasMessageContaining("issuer identity \"\"");
    assertThatThrownBy(() -> new FencingToken("a b", RESOURCE, Epoch.of(1), "a"))
        .hasMessageContaining("[A-Za-z0-9._:-]");
    assertThat(Destination.validateName("invoices")).isEqualTo("invoices");
    assertThatThrownBy(() -> Destination.validateName("Invoices"))
        .hasMessageContaining("destination name \"Invoices\"");
    assertThatThrownBy(
            () ->
                new Receipt(
                    "", RESOURCE, OperationId.of("op"), Epoch.of(1), Instant.EPOCH, Map.of()))
        .hasMessageContaining("destination name");
  }

  @Test
  void requestFingerprintsAreSha256AndPointerFingerprintsDependOnEveryField() {
    assertThat(RequestFingerprint.sha256("abc").value())
        .isEqualTo("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(RequestFingerprint.of(Pointer.to("a")))
        .isEqualTo(RequestFingerprint.of(new Pointer("a", Map.of())))
        .isNotEqualTo(RequestFingerprint.of(Pointer.to("b")))
        .isNotEqualTo(RequestFingerprint.of(new Pointer("a", Map.of("size", "1"))));
    assertThat(RequestFingerprint.of(new Pointer("a", Map.of("k", "v1"))))
        .isNotEqualTo(RequestFingerprint.of(new Pointer("a", Map.of("k", "v2"))));
    assertThatThrownBy(() -> new RequestFingerprint("md5:00")).hasMessageContaining("\"md5:00\"");
  }
}
