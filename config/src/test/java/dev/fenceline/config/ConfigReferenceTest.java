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
package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The reference is generated from the declarations of whatever adapters a registry holds: a third
 * party's adapter appears in it without any change to this module. (The built-in adapters'
 * reference is checked against docs/configuration-reference.md in the cli module, where all of them
 * are on the class path.)
 */
class ConfigReferenceTest {

  @Test
  void aThirdPartyAdaptersKeysAppearWithTypeDefaultSecrecyAndMeaning() {
    String reference = ConfigReference.markdown(LedgerAdapterFactory.registry());

    assertThat(reference)
        .contains("### `type: memory-ledger`")
        .contains("Offers: fenced destinations (`store:` of a fenced destination).")
        .contains(
            "| `ledger` | string | required | The in-memory ledger; stores naming the same one"
                + " share it. |")
        .contains(
            "| `api-key` | string, secret | optional | A credential of the ledger service; never shown. |")
        .contains(
            "| `max-entry-bytes` | integer, 1 to 1000000 | `65536` | The largest entry the ledger"
                + " takes. |");
    // An adapter that declares nothing says so.
    assertThat(reference)
        .contains("### `type: fake-object-store`")
        .contains("Offers: not declared (found out when the store opens).");
    // Every destination kind, with its nested keys dotted.
    assertThat(reference)
        .contains("### `type: staged`", "### `type: http`", "### `type: fenced`")
        .contains("| `backoff.max` | duration | `2s` |")
        .contains("| `request.method` | one of POST, PUT, PATCH | `POST` |");
  }
}
