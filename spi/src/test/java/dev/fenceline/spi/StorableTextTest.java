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
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every ID and value Fenceline stores refuses text that a store would not read back as written
 * (unpaired surrogates, NUL), and every ID type means the same by "blank".
 */
class StorableTextTest {

  private static final ResourceId RESOURCE = ResourceId.of("r");
  private static final String TRICKY =
      "\u0000\u001f\u007f\u0085\u00a0\u200b\u202e\u2028\u3000\ud800\udbff\udc00\udfff\ufeff"
          + "\uffff\\\"u ";

  /** Each stored value, by the name its error message uses, and how to make one from a string. */
  static Stream<Arguments> storedValues() {
    return Stream.of(
        Arguments.of("operation ID", (Function<String, Object>) OperationId::of),
        Arguments.of("holder name", (Function<String, Object>) FencingToken::validateHolder),
        Arguments.of(
            "holder name",
            (Function<String, Object>)
                holder -> new FencingToken("issuer-1", RESOURCE, Epoch.of(1), holder)),
        Arguments.of("pointer target", (Function<String, Object>) Pointer::to),
        Arguments.of(
            "value of pointer attribute \"size\"",
            (Function<String, Object>) value -> new Pointer("t", Map.of("size", value))),
        Arguments.of(
            "value of receipt attribute key",
            (Function<String, Object>)
                value ->
                    new Receipt(
                        "reports",
                        RESOURCE,
                        OperationId.of("op"),
                        Epoch.of(1),
                        Instant.EPOCH,
                        Map.of("key", value))),
        Arguments.of("resource ID", (Function<String, Object>) ResourceId::of),
        Arguments.of("blob key", (Function<String, Object>) BlobKey::of));
  }

  /** The IDs that accept any printable Unicode text (resource IDs and blob keys are ASCII). */
  static Stream<Arguments> unicodeIds() {
    return Stream.of(
        Arguments.of("operation ID", (Function<String, Object>) OperationId::of),
        Arguments.of("holder name", (Function<String, Object>) FencingToken::validateHolder));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storedValues")
  void unpairedSurrogatesAreRefusedSoTwoValuesCannotBecomeOne(
      String kind, Function<String, Object> create) {
    // "a\ud800" and "a\udc00" would both be stored as "a?" by the SQLite and PostgreSQL drivers.
    for (String value : new String[] {"a\ud800", "a\udc00", "\udc00\ud800b", "x\ud83d"}) {
      assertThatThrownBy(() -> create.apply(value))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Cannot use " + kind + " \"")
          .satisfies(e -> assertReadable(e.getMessage()));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storedValues")
  void nulIsRefusedEverywhereNotOnlyOnPostgres(String kind, Function<String, Object> create) {
    assertThatThrownBy(() -> create.apply("a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot use " + kind + " \"a\\u0000b\"")
        .satisfies(e -> assertReadable(e.getMessage()));
  }

  @Test
  void surrogateMessagesNameTheCharacterItsPlaceAndTheFix() {
    assertThatThrownBy(() -> OperationId.of("report-\ud800"))
        .hasMessage(
            "Cannot use operation ID \"report-\\ud800\": it has an unpaired surrogate \\ud800 at"
                + " index 7 (malformed UTF-16), which databases store as '?' so different values"
                + " would become one (pass well-formed Unicode text; a string cut inside a"
                + " surrogate pair is the usual cause)");
    assertThatThrownBy(() -> Pointer.to("\udc00\ud800"))
        .hasMessageContaining("unpaired surrogate \\udc00 at index 0");
    assertThatThrownBy(() -> Pointer.to("a\u0000"))
        .hasMessage(
            "Cannot use pointer target \"a\\u0000\": it has a NUL character (\\u0000) at index 1,"
                + " which PostgreSQL cannot store (remove it; encode binary data, e.g. as Base64)");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unicodeIds")
  void wellFormedSupplementaryCharactersAreKept(String kind, Function<String, Object> create) {
    String value = "report-\ud83d\ude00-\ud801\udc37"; // U+1F600 and U+10437, as surrogate pairs
    assertThat(create.apply(value).toString()).contains(value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "\t \n",
        "\u00a0", // no-break space: String.isBlank says it is not blank
        "\u2007", // figure space
        "\u202f", // narrow no-break space
        "\u3000", // ideographic space
        "\u1680\u2000\u200a",
        "\u2028",
        "\u200b\ufeff", // zero-width space, byte order mark: invisible
        " \u00a0\u3000 "
      })
  void blankMeansUnicodeWhitespaceOrInvisibleForEveryId(String blank) {
    assertThatThrownBy(() -> OperationId.of(blank))
        .hasMessageStartingWith("Cannot use operation ID \"")
        .hasMessageContaining("it is blank")
        .hasMessageContaining("(derive it from the business input");
    assertThatThrownBy(() -> FencingToken.validateHolder(blank))
        .hasMessageStartingWith("Cannot use holder name \"")
        .hasMessageContaining("it is blank");
    assertThatThrownBy(() -> StorableText.requireIdentifier("issuer ID", blank, 100, "hint"))
        .hasMessageContaining("it is blank");
    assertThatThrownBy(() -> ResourceId.of(blank)).hasMessageContaining("resource ID");
    assertThatThrownBy(() -> BlobKey.of(blank)).hasMessageContaining("blob key");
  }

  @Test
  void blankMessagesShowTheInvisibleCharacters() {
    assertThatThrownBy(() -> OperationId.of("\u00a0\u3000"))
        .hasMessage(
            "Cannot use operation ID \"\\u00a0\\u3000\": it is blank (empty, or only whitespace or"
                + " invisible characters) (derive it from the business input, e.g."
                + " report-2026-10-27)");
  }

  @Test
  void whitespaceInsideAnIdIsKept() {
    assertThat(OperationId.of("report\u00a02026").value()).isEqualTo("report\u00a02026");
    assertThat(FencingToken.validateHolder(" worker a ")).isEqualTo(" worker a ");
  }

  @Test
  void valuesMayBeWhitespaceOrHaveControlCharactersButIdsMayNot() {
    assertThat(Pointer.to(" ").target()).isEqualTo(" ");
    assertThat(Pointer.to("line 1\nline 2\t\u0001").target()).isEqualTo("line 1\nline 2\t\u0001");
    assertThat(new Pointer("t", Map.of("note", "\u00a0")).attributes())
        .containsEntry("note", "\u00a0");

    assertThatThrownBy(() -> OperationId.of("line 1\nline 2"))
        .hasMessage(
            "Cannot use operation ID \"line 1\\u000aline 2\": it has the control character"
                + " \\u000a at index 6 (use printable characters only; derive it from the business"
                + " input, e.g. report-2026-10-27)");
    for (String control : new String[] {"a\u007fb", "a\u0085b", "a\u2028b", "a\u2029b"}) {
      assertThatThrownBy(() -> FencingToken.validateHolder(control))
          .hasMessageContaining("control character");
    }
  }

  @Test
  void pointerTargetMessagesHaveTheSameShape() {
    assertThatThrownBy(() -> Pointer.to(""))
        .hasMessage(
            "Cannot use pointer target \"\": it is empty (name a staged blob key or publish a value"
                + " of 1 to 65536 characters)");
    assertThat(Pointer.to("p".repeat(Pointer.MAX_TARGET_LENGTH)).target())
        .hasSize(Pointer.MAX_TARGET_LENGTH);
    assertThatThrownBy(() -> Pointer.to("p".repeat(Pointer.MAX_TARGET_LENGTH + 1)))
        .hasMessageStartingWith("Cannot use pointer target \"ppp")
        .hasMessageEndingWith(
            "...\": it has 65537 characters, more than 65536 (publish large payloads through a"
                + " staged blob store)");
  }

  @Test
  void lengthIsCountedInUtf16CharactersUpToTheLimit() {
    String hundredEmoji = "\ud83d\ude00".repeat(100); // 200 chars, 100 code points
    assertThat(OperationId.of(hundredEmoji).value()).isEqualTo(hundredEmoji);
    assertThatThrownBy(() -> OperationId.of(hundredEmoji + "x"))
        .hasMessageContaining("it has 201 characters, more than 200 (shorten it;");
    assertThat(FencingToken.validateHolder("h".repeat(200))).hasSize(200);
    assertThatThrownBy(() -> FencingToken.validateHolder("h".repeat(201)))
        .hasMessageContaining("more than 200");
  }

  @Test
  void nullsAreNamed() {
    assertThatThrownBy(() -> OperationId.of(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("operation ID is null");
    assertThatThrownBy(() -> StorableText.require("pointer target", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pointer target is null");
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("size", null);
    assertThatThrownBy(() -> new Pointer("t", nullValue))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("value of pointer attribute \"size\" is null");
  }

  @Test
  void thePublicChecksReturnTheValueAndNameTheKindAndHint() {
    assertThat(StorableText.require("note", "any\ttext \u00a0")).isEqualTo("any\ttext \u00a0");
    assertThat(StorableText.requireIdentifier("issuer ID", "issuer-1", 64, "hint"))
        .isEqualTo("issuer-1");
    assertThatThrownBy(
            () ->
                StorableText.requireIdentifier(
                    "issuer ID", "issuer\ud800", 64, "name the issuer, e.g. prod-eu"))
        .hasMessageStartingWith("Cannot use issuer ID \"issuer\\ud800\": it has an unpaired");
    assertThatThrownBy(
            () ->
                StorableText.requireIdentifier(
                    "issuer ID", "x".repeat(65), 64, "name the issuer, e.g. prod-eu"))
        .hasMessageEndingWith(
            "it has 65 characters, more than 64 (shorten it; name the issuer, e.g. prod-eu)");
  }

  @Test
  void quotedValuesShowInvisibleAndLookAlikeCharactersAsEscapes() {
    assertThat(Text.quoteForMessage("a\ud800b\udc00")).isEqualTo("\"a\\ud800b\\udc00\"");
    assertThat(Text.quoteForMessage("emoji \ud83d\ude00")).isEqualTo("\"emoji \ud83d\ude00\"");
    assertThat(Text.quoteForMessage("a\u00a0b\u3000c")).isEqualTo("\"a\\u00a0b\\u3000c\"");
    // A right-to-left override would reorder the rest of the log line.
    assertThat(Text.quoteForMessage("a\u202eb\u200bc")).isEqualTo("\"a\\u202eb\\u200bc\"");
    assertThat(Text.quoteForMessage("\ue000\uffff")).isEqualTo("\"\\ue000\\uffff\"");
    assertThat(Text.quoteForMessage("tag\udb40\udc01")).isEqualTo("\"tag\\udb40\\udc01\"");
    // Typed escapes cannot pass for real ones: the backslash itself is escaped.
    assertThat(Text.quoteForMessage("a\\u0000\"b")).isEqualTo("\"a\\\\u0000\\\"b\"");
  }

  @Test
  void longQuotedValuesAreCutOutsideSurrogatePairs() {
    String value = "x".repeat(79) + "\ud83d\ude00" + "tail";
    assertThat(Text.quoteForMessage(value)).isEqualTo("\"" + "x".repeat(79) + "...\"");
    assertThat(Text.quoteForMessage("y".repeat(81))).isEqualTo("\"" + "y".repeat(80) + "...\"");
  }

  @Test
  void quotingIsReadableAndUnambiguousForAnyUtf16Text() {
    long seed = new SplittableRandom().nextLong();
    SplittableRandom random = new SplittableRandom(seed);
    for (int attempt = 0; attempt < 20_000; attempt++) {
      char[] units = new char[random.nextInt(12)];
      for (int i = 0; i < units.length; i++) {
        // Half from the whole UTF-16 range, half from the tricky corners.
        units[i] =
            random.nextBoolean()
                ? (char) random.nextInt(0x10000)
                : TRICKY.charAt(random.nextInt(TRICKY.length()));
      }
      String value = new String(units);
      String quoted = Text.quoteForMessage(value);
      assertThat(unquote(quoted)).as("seed %s, quoted %s", seed, quoted).isEqualTo(value);
      assertReadable(quoted);
    }
  }

  /** Reverses {@link Text#quoteForMessage} for values it does not cut. */
  private static String unquote(String quoted) {
    StringBuilder value = new StringBuilder();
    for (int i = 1; i < quoted.length() - 1; i++) {
      char c = quoted.charAt(i);
      if (c != '\\') {
        value.append(c);
      } else if (quoted.charAt(i + 1) == 'u') {
        value.append((char) Integer.parseInt(quoted.substring(i + 2, i + 6), 16));
        i += 5;
      } else {
        value.append(quoted.charAt(++i));
      }
    }
    return value.toString();
  }

  /** A message shows no character a reader cannot see: everything invisible is escaped. */
  private static void assertReadable(String message) {
    assertThat(message.codePoints())
        .as("message %s", message)
        .allMatch(
            c ->
                switch (Character.getType(c)) {
                  case Character.CONTROL,
                      Character.FORMAT,
                      Character.SURROGATE,
                      Character.PRIVATE_USE,
                      Character.UNASSIGNED,
                      Character.LINE_SEPARATOR,
                      Character.PARAGRAPH_SEPARATOR ->
                      false;
                  case Character.SPACE_SEPARATOR -> c == ' ';
                  default -> true;
                });
  }
}
