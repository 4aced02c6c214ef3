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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code type: fenced}: a store's own fenced destination ({@code Adapter#destination}) in YAML,
 * shown with a third party's adapter ({@link LedgerAdapterFactory}, {@code memory-ledger}) that
 * nothing in this module names: its keys are checked, placed and masked from its declarations, and
 * its declared roles decide, at load, whether a store can be a fenced destination.
 */
class FencedDestinationTest {

  private static final String API_KEY = "ledger-Key-5f3c9a81";

  @TempDir Path directory;

  private String yaml(String ledgerStore, String destination) {
    return """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          books:
            type: memory-ledger
        %s
        issuer: main
        destinations:
          entries:
        %s
        """
        .formatted(
            directory.resolve("fenceline.db"),
            ledgerStore.indent(4).stripTrailing(),
            destination.indent(4).stripTrailing());
  }

  private FencelineConfig load(String yaml) {
    return FencelineConfig.load(
        ConfigFiles.write(directory, yaml), variable -> null, LedgerAdapterFactory.registry());
  }

  private ConfigFileException loadFails(String yaml) {
    return catchThrowableOfType(ConfigFileException.class, () -> load(yaml).close());
  }

  @Test
  void publishesAFileThroughTheStoresFencedDestinationAndRejectsTheStaleOwner() throws Exception {
    Path file = directory.resolve("entry.txt");
    Files.writeString(file, "2026-10-27: 42\n");
    ResourceId resource = ResourceId.of("books/october");
    String ledger = "books-" + System.nanoTime();
    try (FencelineConfig config = load(yaml("ledger: " + ledger, "type: fenced\nstore: books"))) {
      ConfiguredDestination entries = config.destination("entries");
      assertThat(entries.strategy()).isEqualTo(Strategy.FENCED_NATIVELY);
      assertThat(entries.guarantee()).isEqualTo(Guarantee.FENCED);
      assertThat(entries.type()).isEqualTo("memory-ledger");
      assertThat(entries.why())
          .isEqualTo(
              "memory-ledger store books offers a fenced destination: each write compares the"
                  + " epoch, applies the file and records the operation in one step at the store");

      Lease a =
          config.issuer().tryAcquire(resource, "worker-a", Duration.ofSeconds(30)).orElseThrow();
      entries.destination().register(a.token());
      WriteOutcome first = entries.publish(a.token(), OperationId.of("entry-1"), file);
      WriteOutcome again = entries.publish(a.token(), OperationId.of("entry-1"), file);
      assertThat(first).isInstanceOf(Applied.class);
      assertThat(again).isInstanceOf(AlreadyApplied.class);
      assertThat(LedgerAdapterFactory.entry(ledger, "entries", resource))
          .contains("2026-10-27: 42\n");

      // A gives the lease up; B takes over and registers a newer epoch; A's late write is refused.
      config.issuer().release(a);
      FencingToken b =
          config
              .issuer()
              .tryAcquire(resource, "worker-b", Duration.ofSeconds(30))
              .orElseThrow()
              .token();
      entries.destination().register(b);
      Files.writeString(file, "stale\n");
      assertThat(entries.publish(a.token(), OperationId.of("entry-2"), file))
          .isInstanceOf(RejectedStale.class);
      assertThat(LedgerAdapterFactory.entry(ledger, "entries", resource))
          .contains("2026-10-27: 42\n");
    }
  }

  @Test
  void describeAndCheckGiveTheFencedRow() {
    try (FencelineConfig config = load(yaml("ledger: rows", "type: fenced\nstore: books"))) {
      DestinationReport row = config.check().destinations().get(0);
      assertThat(row.name()).isEqualTo("entries");
      assertThat(row.type()).isEqualTo("memory-ledger");
      assertThat(row.guarantee()).isEqualTo(Guarantee.FENCED);
      assertThat(row.strategy()).isEqualTo(Strategy.FENCED_NATIVELY);
      assertThat(row.notUsable()).isEmpty();
      assertThat(config.describe()).containsExactly(row);
    }
  }

  @Test
  void aStoreWhoseTypeOffersNoFencedDestinationIsRefusedAtLoad() {
    ConfigFileException error = loadFails(yaml("ledger: x", "type: fenced\nstore: main"));

    assertThat(error.keyPath()).isEqualTo("destinations.entries.store");
    assertThat(error.location().line()).isEqualTo(12);
    assertThat(error)
        .hasMessageEndingWith(
            ": store main (jdbc) offers no fenced destination (point store at a store of a type"
                + " that offers one: memory-ledger; or publish through a staged destination)");
  }

  @Test
  void aThirdPartyAdaptersKeysAreCheckedAndPlacedFromItsDeclarations() {
    ConfigFileException typo = loadFails(yaml("ledgr: books", "type: fenced\nstore: books"));
    assertThat(typo.keyPath()).isEqualTo("stores.books.ledgr");
    assertThat(typo.location().line()).isEqualTo(7);
    assertThat(typo)
        .hasMessageContaining(
            "unknown key \"ledgr\" (did you mean \"ledger\"? known keys here: api-key, ledger,"
                + " max-entry-bytes, type)");

    ConfigFileException missing = loadFails(yaml("api-key: x", "type: fenced\nstore: books"));
    assertThat(missing)
        .hasMessageContaining("stores.books.ledger")
        .hasMessageContaining("the key is missing or empty (add it, e.g. ledger: books)");

    ConfigFileException range =
        loadFails(yaml("ledger: b\nmax-entry-bytes: 0", "type: fenced\nstore: books"));
    assertThat(range)
        .hasMessageContaining("stores.books.max-entry-bytes at ")
        .hasMessageContaining("0 is out of range (write a number from 1 to 1000000)");

    ConfigFileException kind = loadFails(yaml("ledger: b", "type: fencd\nstore: books"));
    assertThat(kind)
        .hasMessageContaining("unknown destination type \"fencd\"")
        .hasMessageContaining("did you mean \"fenced\"?");
  }

  @Test
  void aThirdPartyAdaptersSecretKeyIsMaskedEverywhere() {
    // The key is declared secret: its value is shown as **** where a message would show it, and
    // masked wherever else it turns up (a value written by mistake into another key).
    ConfigFileException wrong =
        loadFails(
            yaml(
                "ledger: b\napi-key: " + API_KEY + "\nmax-entry-bytes: " + API_KEY,
                "type: fenced\nstore: books"));
    assertThat(wrong.getMessage())
        .contains("stores.books.max-entry-bytes")
        .contains("is not a whole number")
        .doesNotContain(API_KEY);
    try (FencelineConfig config =
        load(yaml("ledger: b\napi-key: " + API_KEY, "type: fenced\nstore: books"))) {
      assertThat(config.toString()).doesNotContain(API_KEY);
      assertThat(config.mask("the ledger refused key " + API_KEY))
          .isEqualTo("the ledger refused key ****");
    }
  }
}
