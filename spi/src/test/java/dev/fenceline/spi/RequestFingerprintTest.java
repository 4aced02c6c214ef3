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
