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
