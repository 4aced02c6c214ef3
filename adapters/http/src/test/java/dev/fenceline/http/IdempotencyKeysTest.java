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

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

  private static final ResourceId RESOURCE = ResourceId.of("invoice-7");
  private static final OperationId OPERATION = OperationId.of("pay-7");

  @Test
  void theKeyIsAPureFunctionOfDestinationResourceAndOperation() {
    String key = IdempotencyKeys.of("payments", RESOURCE, OPERATION);

    assertThat(key).matches("fl1-[0-9a-f]{64}");
    assertThat(IdempotencyKeys.of("payments", ResourceId.of("invoice-7"), OperationId.of("pay-7")))
        .isEqualTo(key);
    // Pinned: a change of the derivation would send retries of old operations under new keys.
    assertThat(key)
        .isEqualTo("fl1-8acefdb72f0bd247e24ecfaa29b944f194d2da43aa9462efd5301cdcbc2f9145");
  }

  @Test
  void everyPartChangesTheKey() {
    String key = IdempotencyKeys.of("payments", RESOURCE, OPERATION);
    assertThat(
            java.util.List.of(
                IdempotencyKeys.of("refunds", RESOURCE, OPERATION),
                IdempotencyKeys.of("payments", ResourceId.of("invoice-8"), OPERATION),
                IdempotencyKeys.of("payments", RESOURCE, OperationId.of("pay-8"))))
        .doesNotContain(key)
        .doesNotHaveDuplicates();
  }

  @Test
  void lengthPrefixesKeepFieldBoundaries() {
    assertThat(IdempotencyKeys.of("a", ResourceId.of("bc"), OperationId.of("d")))
        .isNotEqualTo(IdempotencyKeys.of("a", ResourceId.of("b"), OperationId.of("cd")));
  }

  @Test
  void refusesAnInvalidDestinationName() {
    assertThatThrownBy(() -> IdempotencyKeys.of("Payments!", RESOURCE, OPERATION))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Payments!");
  }
}
