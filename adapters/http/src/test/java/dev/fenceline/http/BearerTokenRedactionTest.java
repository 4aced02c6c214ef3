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
