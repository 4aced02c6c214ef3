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
package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A property over generated strings (see {@link RandomText}): every string Fenceline accepts as an
 * operation ID, a holder name, a pointer target or a pointer attribute value is stored and read
 * back identically (same code points, same UTF-8 bytes) on SQLite and on PostgreSQL, so two
 * different IDs can never become one; every string it refuses gets an {@link
 * IllegalArgumentException} that names the kind of value and shows it readably.
 *
 * <p>Each run draws a new seed and prints it with any failure; replay one with {@code
 * -Dfenceline.text-seed=<seed>}.
 */
class StoredTextRoundTripTest {

  private static final int TRIES_PER_DATABASE = 200;
  private static final int TRIES_WITHOUT_DATABASE = 2_000;
  private static final long SEED =
      Long.getLong("fenceline.text-seed", new java.util.SplittableRandom().nextLong());

  @TempDir Path directory;

  @Test
  void everyAcceptedValueReadsBackIdenticallyOnSqlite() {
    try (JdbcStore store = new SqliteDatabase(directory).openStore()) {
      checkRoundTrips("sqlite", store);
    }
  }

  @Test
  void everyAcceptedValueReadsBackIdenticallyOnPostgres() {
    try (JdbcStore store = PostgresDatabase.shared().openStore()) {
      checkRoundTrips("postgres", store);
    }
  }

  @Test
  void everyRefusedValueGetsAMessageNamingItsKind() {
    RandomText texts = new RandomText(SEED);
    int[] refused = new int[3];
    for (int i = 0; i < TRIES_WITHOUT_DATABASE; i++) {
      String text = texts.next();
      String context = context(i, text);
      boolean broken = hasUnpairedSurrogateOrNul(text);
      Optional<OperationId> operation =
          accepted(context, "operation ID", () -> OperationId.of(text));
      Optional<String> holder =
          accepted(context, "holder name", () -> FencingToken.validateHolder(text));
      Optional<Pointer> pointer = accepted(context, "pointer target", () -> Pointer.to(text));
      Optional<Pointer> attribute =
          accepted(
              context,
              "value of pointer attribute \"note\"",
              () -> new Pointer("t", Map.of("note", text)));
      if (broken) {
        assertThat(operation).as("operation ID accepted: %s", context).isEmpty();
        assertThat(holder).as("holder name accepted: %s", context).isEmpty();
        assertThat(pointer).as("pointer target accepted: %s", context).isEmpty();
        assertThat(attribute).as("pointer attribute accepted: %s", context).isEmpty();
      }
      if (isUnicodeBlank(text)) {
        assertThat(operation).as("blank operation ID accepted: %s", context).isEmpty();
        assertThat(holder).as("blank holder name accepted: %s", context).isEmpty();
      }
      refused[0] += operation.isEmpty() ? 1 : 0;
      refused[1] += pointer.isEmpty() ? 1 : 0;
      refused[2] += broken ? 1 : 0;
    }
    // The generator must reach both sides of each rule, or the property proves nothing.
    assertThat(refused[0]).as("refused operation IDs").isBetween(200, 1_800);
    assertThat(refused[1]).as("refused pointer targets").isBetween(200, 1_800);
    assertThat(refused[2]).as("strings with an unpaired surrogate or NUL").isGreaterThan(200);
  }

  private void checkRoundTrips(String database, JdbcStore store) {
    PointerStore pointers = store.pointerStore("reports");
    JdbcLeaseIssuer issuer = store.leaseIssuer();
    RandomText texts = new RandomText(SEED);
    String run = Long.toHexString(new java.util.SplittableRandom().nextLong());
    int stored = 0;
    for (int i = 0; i < TRIES_PER_DATABASE; i++) {
      String text = texts.next();
      String context = database + ", " + context(i, text);
      ResourceId resource = ResourceId.of("text/" + run + "/" + i);
      Optional<OperationId> operation =
          accepted(context, "operation ID", () -> OperationId.of(text));
      Optional<String> holder =
          accepted(context, "holder name", () -> FencingToken.validateHolder(text));
      Optional<Pointer> pointer =
          accepted(context, "pointer target", () -> new Pointer(text, Map.of("note", text)));

      if (holder.isPresent()) {
        assertThat(issuer.tryAcquire(resource, text, Duration.ofMinutes(5)))
            .as("lease on a new resource: %s", context)
            .isPresent();
        assertSameText(
            context,
            "holder name in the lease status",
            text,
            issuer.status(resource).holder().orElseThrow());
        stored++;
      }
      if (operation.isPresent() || pointer.isPresent()) {
        OperationId op = operation.orElse(OperationId.of("plain-operation"));
        Pointer change = pointer.orElse(Pointer.to("plain-target"));
        FencingToken token = new FencingToken(store.id(), resource, Epoch.of(1), "writer");
        WriteOutcome first = pointers.write(token, op, change);
        assertThat(first).as("first write: %s", context).isInstanceOf(Applied.class);

        PointerState current = pointers.current(resource).orElseThrow();
        Receipt receipt = pointers.lookup(resource, op).orElseThrow();
        assertSameText(
            context, "operation ID in the pointer", op.value(), current.operation().value());
        assertSameText(context, "pointer target", change.target(), current.pointer().target());
        assertSameText(
            context,
            "pointer target in the receipt",
            change.target(),
            receipt.attribute(PointerStore.TARGET_ATTRIBUTE).orElseThrow());
        if (pointer.isPresent()) {
          assertSameText(
              context, "pointer attribute", text, current.pointer().attributes().get("note"));
          assertSameText(
              context,
              "pointer attribute in the receipt",
              text,
              receipt.attribute("note").orElseThrow());
        }
        if (operation.isPresent()) {
          checkACloseOperationIdStaysApart(
              context, pointers, token, op, change, texts.closeTo(text));
        }
        stored++;
      }
    }
    assertThat(stored).as("tries that stored a generated value (seed %s)", SEED).isGreaterThan(80);
  }

  /**
   * Writes a second operation whose ID is close to the first one (one character replaced by one of
   * the same kind): it must be applied as a new operation, and each ID must still find its own
   * receipt.
   */
  private static void checkACloseOperationIdStaysApart(
      String context,
      PointerStore pointers,
      FencingToken token,
      OperationId first,
      Pointer firstChange,
      String close) {
    Optional<OperationId> second =
        close.equals(first.value())
            ? Optional.empty()
            : accepted(context, "operation ID", () -> OperationId.of(close));
    if (second.isEmpty()) {
      return;
    }
    String secondContext = context + ", close ID " + RandomText.escape(close);
    WriteOutcome outcome = pointers.write(token, second.get(), Pointer.to("close-target"));
    assertThat(outcome)
        .as("two different operation IDs became one: %s", secondContext)
        .isInstanceOf(Applied.class);
    assertThat(pointers.lookup(token.resource(), second.get()).orElseThrow().attribute("target"))
        .as("receipt of the close ID: %s", secondContext)
        .contains("close-target");
    assertSameText(
        secondContext,
        "pointer target in the first ID's receipt",
        firstChange.target(),
        pointers
            .lookup(token.resource(), first)
            .orElseThrow()
            .attribute(PointerStore.TARGET_ATTRIBUTE)
            .orElseThrow());
  }

  /** The value {@code create} makes, or empty if it refuses the text with a clear message. */
  private static <T> Optional<T> accepted(String context, String kind, Supplier<T> create) {
    try {
      return Optional.of(create.get());
    } catch (IllegalArgumentException refused) {
      String message = refused.getMessage();
      assertThat(message)
          .as("message for a refused %s: %s", kind, context)
          .startsWith("Cannot use " + kind + " \"");
      assertThat(isReadable(message))
          .as("invisible characters in the message %s", RandomText.escape(message))
          .isTrue();
      return Optional.empty();
    } catch (RuntimeException other) {
      return fail("%s threw %s instead of accepting or refusing: %s", kind, other, context);
    }
  }

  private static void assertSameText(String context, String what, String written, String read) {
    assertThat(codePoints(read))
        .as("%s read back differently: %s", what, context)
        .isEqualTo(codePoints(written));
    assertThat(strictUtf8(read, what, context))
        .as("UTF-8 of %s: %s", what, context)
        .isEqualTo(strictUtf8(written, what, context));
  }

  private static String codePoints(String text) {
    return text.codePoints()
        .mapToObj(c -> String.format("U+%04X", c))
        .collect(Collectors.joining(" "));
  }

  /** UTF-8 bytes, failing on malformed UTF-16 instead of substituting '?' as getBytes does. */
  private static byte[] strictUtf8(String text, String what, String context) {
    try {
      ByteBuffer bytes =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(text));
      return Arrays.copyOf(bytes.array(), bytes.limit());
    } catch (CharacterCodingException e) {
      throw new AssertionError(
          what + " " + RandomText.escape(text) + " is malformed UTF-16, yet accepted: " + context,
          e);
    }
  }

  private static boolean hasUnpairedSurrogateOrNul(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0 || Character.isLowSurrogate(c)) {
        return true;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
          return true;
        }
        i++;
      }
    }
    return false;
  }

  private static boolean isUnicodeBlank(String text) {
    return text.codePoints().allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c));
  }

  /** Nothing a reader cannot see: no control, format, surrogate, unassigned or odd space. */
  private static boolean isReadable(String message) {
    return message
        .codePoints()
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

  private static String context(int attempt, String text) {
    return "seed "
        + SEED
        + " (replay with -Dfenceline.text-seed="
        + SEED
        + "), try "
        + attempt
        + ", text "
        + RandomText.escape(text);
  }
}
