package dev.fenceline.cas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import org.junit.jupiter.api.Test;

/** The names are stored layout: these exact answers must never change. */
class RecordNamesTest {

  @Test
  void aResourceBecomesOneSegmentWithItsSlashesEscaped() {
    assertThat(RecordNames.segment(ResourceId.of("reports/nightly/eu-1.x")))
        .isEqualTo("reports!nightly!eu-1.x");
    assertThat(RecordNames.segment(ResourceId.of("a"))).isEqualTo("a");
  }

  @Test
  void anOperationBecomesTheHexSha256OfItsUtf8Bytes() {
    // FIPS 180-2 test vector for "abc".
    assertThat(RecordNames.operationDigest(OperationId.of("abc")))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(RecordNames.operationDigest(OperationId.of("über/1")))
        .hasSize(64)
        .matches("[0-9a-f]{64}")
        .isNotEqualTo(RecordNames.operationDigest(OperationId.of("uber/1")));
  }
}
