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
