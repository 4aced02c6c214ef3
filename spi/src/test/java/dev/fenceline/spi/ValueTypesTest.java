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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValueTypesTest {

  @ParameterizedTest
  @ValueSource(strings = {"nightly-report", "ledger/acct-42", "a", "A.b_c-9/x.y", "a..b"})
  void acceptsSafeResourceIds(String value) {
    assertThat(ResourceId.of(value).value()).isEqualTo(value);
  }

  @Test
  void rejectsUnsafeResourceIdsNamingTheValueAndTheRule() {
    assertThatThrownBy(() -> ResourceId.of("")).hasMessageContaining("empty");
    assertThatThrownBy(() -> ResourceId.of("/etc/passwd"))
        .hasMessageContaining("\"/etc/passwd\"")
        .hasMessageContaining("starts or ends with '/'");
    assertThatThrownBy(() -> ResourceId.of("reports/")).hasMessageContaining("'/'");
    assertThatThrownBy(() -> ResourceId.of("a/../b")).hasMessageContaining("segment '..'");
    assertThatThrownBy(() -> ResourceId.of("a/./b")).hasMessageContaining("segment '.'");
    assertThatThrownBy(() -> ResourceId.of("a//b")).hasMessageContaining("empty segment");
    assertThatThrownBy(() -> ResourceId.of("a b")).hasMessageContaining("[A-Za-z0-9._-]");
    assertThatThrownBy(() -> ResourceId.of("a\\b")).hasMessageContaining("outside");
    assertThatThrownBy(() -> ResourceId.of("x".repeat(ResourceId.MAX_LENGTH + 1)))
        .hasMessageContaining("201 characters");
    assertThat(ResourceId.of("x".repeat(ResourceId.MAX_LENGTH)).value()).hasSize(200);
  }

  @Test
  void controlCharactersAreEscapedInMessagesSoALogLineCannotBeForged() {
    assertThatThrownBy(() -> ResourceId.of("a\nFAKE LOG LINE"))
        .hasMessageContaining("a\\u000aFAKE")
        .hasMessageNotContaining("\n");
  }

  @Test
  void blobKeysFollowTheSameRulesWithALongerLimit() {
    assertThat(BlobKey.of("reports/2026-10-27.csv").resolve("part-1").value())
        .isEqualTo("reports/2026-10-27.csv/part-1");
    assertThatThrownBy(() -> BlobKey.of("../escape")).hasMessageContaining("blob key");
    assertThat(BlobKey.of("k".repeat(BlobKey.MAX_LENGTH)).value()).hasSize(BlobKey.MAX_LENGTH);
  }

  @Test
  void epochsAreNonNegativeAndOrdered() {
    assertThatThrownBy(() -> Epoch.of(-1)).hasMessageContaining("-1");
    assertThat(Epoch.of(33).next()).isEqualTo(Epoch.of(34));
    assertThat(Epoch.of(33).isOlderThan(Epoch.of(34))).isTrue();
    assertThat(Epoch.of(34).isNewerThan(Epoch.of(33))).isTrue();
    assertThat(Epoch.of(34).isOlderThan(Epoch.of(34))).isFalse();
    assertThatThrownBy(() -> Epoch.of(Long.MAX_VALUE).next())
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void tokensNeedAnIssuedEpochAndAPrintableHolder() {
    ResourceId resource = ResourceId.of("nightly-report");
    assertThatThrownBy(() -> new FencingToken("issuer-1", resource, Epoch.NONE, "a"))
        .hasMessageContaining("epoch 0 is never issued");
    assertThatThrownBy(() -> new FencingToken("issuer-1", resource, Epoch.of(1), " "))
        .hasMessageContaining("holder name");
    assertThatThrownBy(() -> new FencingToken("issuer-1", resource, Epoch.of(1), "a\tb"))
        .hasMessageContaining("control character \\u0009");
    assertThat(new FencingToken("issuer-1", resource, Epoch.of(33), "worker-a").toString())
        .isEqualTo("nightly-report@33 (worker-a)");
  }

  @Test
  void operationIdsArePrintableAndBounded() {
    assertThat(OperationId.of("report 2026-10-27").value()).isEqualTo("report 2026-10-27");
    assertThatThrownBy(() -> OperationId.of("")).hasMessageContaining("operation ID");
    assertThatThrownBy(() -> OperationId.of("x".repeat(201)))
        .hasMessageContaining("201 characters, more than 200");
    assertThatThrownBy(() -> OperationId.of("a\u0000b")).hasMessageContaining("\\u0000");
  }

  @Test
  void receiptsCopyAndSortTheirAttributesAndValidateNames() {
    Map<String, String> attributes = new HashMap<>(Map.of("size", "10", "key", "k"));
    Receipt receipt =
        new Receipt(
            "reports",
            ResourceId.of("r"),
            OperationId.of("op"),
            Epoch.of(1),
            Instant.EPOCH,
            attributes);
    attributes.put("later", "x");

    assertThat(receipt.attributes())
        .containsExactly(Map.entry("key", "k"), Map.entry("size", "10"));
    assertThat(receipt.attribute("size")).contains("10");
    assertThatThrownBy(() -> receipt.attributes().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(
            () ->
                new Receipt(
                    "reports",
                    ResourceId.of("r"),
                    OperationId.of("op"),
                    Epoch.of(1),
                    Instant.EPOCH,
                    Map.of("Bad Name", "v")))
        .hasMessageContaining("\"Bad Name\"");
  }

  @Test
  void intentRecordedNamesAnEarlierEpochNotAboveTheIntentsAndOneOnceAttemptsRepeat() {
    ResourceId resource = ResourceId.of("payments");
    OperationId operation = OperationId.of("pay-1");
    RequestFingerprint fingerprint = RequestFingerprint.sha256("POST /payments {}");
    Intent second =
        new Intent(
            "api",
            resource,
            operation,
            fingerprint,
            Epoch.of(5),
            2,
            Instant.EPOCH,
            java.util.Optional.empty());

    assertThat(new IntentRecorded(second, Epoch.of(4)).previousEpoch()).isEqualTo(Epoch.of(4));
    assertThatThrownBy(() -> new IntentRecorded(second, Epoch.of(6)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("6")
        .hasMessageContaining("5");
    assertThatThrownBy(() -> new IntentRecorded(second, Epoch.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 attempts");
  }

  @Test
  void rejectedStaleNeedsAnOlderSuppliedEpochAndDescribesItself() {
    ResourceId resource = ResourceId.of("report/2026-10-27");
    RejectedStale stale = new RejectedStale(resource, Epoch.of(33), Epoch.of(34));

    assertThat(stale.describe("publish"))
        .isEqualTo(
            "Cannot publish report/2026-10-27: epoch 33 is older than current epoch 34 (the"
                + " lease was lost; re-acquire before retrying)");
    assertThatThrownBy(() -> new RejectedStale(resource, Epoch.of(34), Epoch.of(34)))
        .hasMessageContaining("not older");
  }

  @Test
  void pointersReserveTheTargetAttribute() {
    assertThatThrownBy(() -> new Pointer("k", Map.of("target", "x")))
        .hasMessageContaining("reserved");
    assertThatThrownBy(() -> Pointer.to("")).hasMessageContaining("1 to");
  }

  @Test
  void guaranteeFollowsFromCapabilitiesAndNeverOverClaims() {
    assertThat(Guarantee.of(EnumSet.noneOf(Capability.class))).isEqualTo(Guarantee.UNGUARDED);
    assertThat(Guarantee.of(EnumSet.of(Capability.NATIVE_EPOCH_CHECK)))
        .isEqualTo(Guarantee.UNGUARDED);
    assertThat(Guarantee.of(EnumSet.of(Capability.IDEMPOTENCY_KEY, Capability.RESULT_LOOKUP)))
        .isEqualTo(Guarantee.IDEMPOTENT_ONLY);
    assertThat(Guarantee.of(EnumSet.of(Capability.OPERATION_RECORD)))
        .isEqualTo(Guarantee.IDEMPOTENT_ONLY);
    assertThat(Guarantee.of(EnumSet.of(Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD)))
        .isEqualTo(Guarantee.FENCED);
    assertThat(
            Guarantee.of(
                EnumSet.of(
                    Capability.NATIVE_EPOCH_CHECK,
                    Capability.OPERATION_RECORD,
                    Capability.STAGED_PUBLISH)))
        .isEqualTo(Guarantee.FENCED_BY_STAGING);
    assertThat(
            Guarantee.of(
                EnumSet.of(
                    Capability.FENCED_INTENT,
                    Capability.IDEMPOTENCY_KEY,
                    Capability.RESULT_LOOKUP)))
        .isEqualTo(Guarantee.FENCED_AT_INTENT);
    assertThat(Guarantee.of(EnumSet.of(Capability.FENCED_INTENT, Capability.RESULT_LOOKUP)))
        .as("an intent record without idempotency keys cannot stop a duplicate call")
        .isEqualTo(Guarantee.UNGUARDED);
    assertThat(Guarantee.FENCED_AT_INTENT.compareTo(Guarantee.FENCED_BY_STAGING))
        .as("declared weaker than FENCED and FENCED_BY_STAGING")
        .isPositive();
    assertThat(Guarantee.FENCED_AT_INTENT.compareTo(Guarantee.IDEMPOTENT_ONLY))
        .as("declared stronger than IDEMPOTENT_ONLY")
        .isNegative();
  }
}
