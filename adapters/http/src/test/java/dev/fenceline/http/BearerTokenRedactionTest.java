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

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 19 item 7: an echoed token is masked; a short token does not garble other words. */
class BearerTokenRedactionTest {

  @Test
  void aOneLetterTokenIsMaskedOnlyWhereItStandsAlone() {
    BearerToken token =
        BearerToken.fromEnvironment("PAYMENTS_API_TOKEN", Map.of("PAYMENTS_API_TOKEN", "x")::get);

    assertThat(token.redact("{\"error\":\"payment does not exist\",\"example\":\"see examples\"}"))
        .isEqualTo("{\"error\":\"payment does not exist\",\"example\":\"see examples\"}");
    assertThat(token.redact("rejected Authorization: Bearer x; token \"x\" unknown"))
        .isEqualTo("rejected Authorization: Bearer ***; token \"***\" unknown");
  }

  @Test
  void aLongTokenIsMaskedWhereItStandsAsAWord() {
    BearerToken token = BearerToken.fromEnvironment("T", Map.of("T", "tok_live_5f3c9a81")::get);

    assertThat(token.redact("bad token tok_live_5f3c9a81.")).isEqualTo("bad token ***.");
    assertThat(token.redact("xtok_live_5f3c9a81")).isEqualTo("xtok_live_5f3c9a81");
  }

  @Test
  void aTokenWhoseEdgeIsASymbolIsMaskedEvenNextToAWord() {
    BearerToken token = BearerToken.fromEnvironment("T", Map.of("T", "!tok_live_5f3c9a81")::get);

    assertThat(token.redact("pw!tok_live_5f3c9a81 refused")).isEqualTo("pw*** refused");
  }
}
