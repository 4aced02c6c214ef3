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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per class of mistake: each names file:line:column, the key path and the fix. */
class ConfigErrorsTest {

  @TempDir Path directory;

  private ConfigFileException loadFails(String yaml) {
    return loadFails(yaml, Map.of());
  }

  private ConfigFileException loadFails(String yaml, Map<String, String> environment) {
    return catchThrowableOfType(
        ConfigFileException.class, () -> ConfigFiles.load(directory, yaml, environment).close());
  }

  private String at(int line, int column) {
    return directory.resolve("fenceline.yaml") + ":" + line + ":" + column;
  }

  @Test
  void aTypoInAKeyNamesItsPlaceAndSuggestsTheKnownKey() {
    ConfigFileException error =
        loadFails(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:/tmp/x.db
                lock-timout: 5s
            issuer: main
            """);

    assertThat(error.keyPath()).isEqualTo("stores.main.lock-timout");
    assertThat(error.location().line()).isEqualTo(5);
    assertThat(error.location().column()).isEqualTo(5);
    assertThat(error)
        .hasMessageStartingWith(
            "Cannot configure stores.main.lock-timout at "
                + at(5, 5)
                + ": unknown key \"lock-timout\" (did you mean \"lock-timeout\"? known keys here:"
                + " connect-timeout, lock-timeout, login-timeout, migration-timeout, password,");
  }

  @Test
  void retentionKeysGoTogetherAndKeepEveryVersionAStagedDestinationKeeps() {
    String stores =
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
            %s
          reports-dir:
            type: vfs
            uri: %s
        issuer: main
        """;
    String db = directory.resolve("fenceline.db").toString();
    String dir = directory.resolve("reports").toUri().toString();

    ConfigFileException alone = loadFails(stores.formatted(db, "receipt-retention: 7d", dir));
    assertThat(alone.keyPath()).isEqualTo("stores.main.pointer-versions");
    assertThat(alone)
        .hasMessageContaining("receipt-retention is set, and pointer-versions goes with it")
        .hasMessageContaining("at least the keep-versions of every staged destination");

    ConfigFileException pruneAlone = loadFails(stores.formatted(db, "prune-every: 1h", dir));
    assertThat(pruneAlone.keyPath()).isEqualTo("stores.main.prune-every");
    assertThat(pruneAlone).hasMessageContaining("nothing to prune without receipt-retention");

    String tooFewYaml =
        """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:%s
                receipt-retention: 7d
                pointer-versions: 2
              reports-dir:
                type: vfs
                uri: %s
            issuer: main
            destinations:
              reports:
                store: reports-dir
                keep-versions: 5
            """
            .formatted(db, dir);
    // Refused by load: the pointer store (the issuer's, for a vfs store) is known without opening.
    ConfigFileException tooFew = loadFails(tooFewYaml);
    assertThat(tooFew.location().line()).isEqualTo(14);
    assertThat(tooFew.keyPath()).isEqualTo("destinations.reports.keep-versions");
    assertThat(tooFew)
        .hasMessageContaining(
            "keep-versions 5 is more than the 2 pointer versions store main keeps")
        .hasMessageContaining("raise pointer-versions of store main to at least 5");
  }

  @Test
  void aTypoAtTheTopLevelListsTheTopLevelKeys() {
    ConfigFileException error =
        loadFails(ConfigFiles.sqliteAndDirectory(directory) + "destinatons: {}\n");

    assertThat(error.keyPath()).isEqualTo("destinatons");
    assertThat(error.location().line()).isEqualTo(9);
    assertThat(error).hasMessageContaining("did you mean \"destinations\"?");
  }

  @Test
  void aWrongTypeNamesTheValueAndWhatIsExpected() {
    ConfigFileException number =
        loadFails(
            """
            stores:
              main: {type: jdbc, url: "jdbc:postgresql://db/app", pool-size: ten}
            issuer: main
            """);
    assertThat(number)
        .hasMessage(
            "Cannot configure stores.main.pool-size at "
                + at(2, 66)
                + ": \"ten\" is not a whole number (write a number from 1 to 1000)");

    ConfigFileException mapping =
        loadFails(ConfigFiles.sqliteAndDirectory(directory) + "lease: 30s\n");
    assertThat(mapping.keyPath()).isEqualTo("lease");
    assertThat(mapping)
        .hasMessage(
            "Cannot configure lease at "
                + at(9, 8)
                + ": expected a mapping of keys, found a string (indent its keys below \"lease:\""
                + " on their own lines)");

    ConfigFileException flag =
        loadFails(ConfigFiles.sqliteAndDirectory(directory) + "allow-unguarded: yes please\n");
    assertThat(flag).hasMessageContaining("\"yes please\" is not a boolean (write true or false)");

    ConfigFileException duration =
        loadFails(ConfigFiles.sqliteAndDirectory(directory) + "lease: {ttl: 30 seconds}\n");
    assertThat(duration.keyPath()).isEqualTo("lease.ttl");
    assertThat(duration)
        .hasMessageContaining(
            "\"30 seconds\" is not a duration (write a number with ms, s, m or h, e.g. 30s, 500ms,"
                + " 2m, 1h)");
  }

  @Test
  void aMissingEnvironmentVariableIsNamedWithFileAndLine() {
    ConfigFileException error =
        loadFails(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:${FENCELINE_HOME}/fenceline.db
            issuer: main
            """);

    assertThat(error)
        .hasMessage(
            "Cannot configure stores.main.url at "
                + at(4, 10)
                + ": environment variable FENCELINE_HOME is not set (set FENCELINE_HOME, or give a"
                + " default with ${FENCELINE_HOME:-default})");
  }

  @Test
  void anHttpDestinationThatWouldReSendBlindMustDeclareThatTheApiHonoursKeys() {
    String head =
        ConfigFiles.sqliteAndDirectory(directory)
            + """
            destinations:
              payments:
                type: http
                base-uri: https://api.example.com
                request: {path: /payments}
            """;
    ConfigFileException undeclared = loadFails(head);
    assertThat(undeclared.keyPath()).isEqualTo("destinations.payments.keys-honoured");
    assertThat(undeclared)
        .hasMessageStartingWith(
            "Cannot configure destinations.payments.keys-honoured at " + at(11, 5) + ": ")
        .hasMessageContaining(
            "no lookup is configured and max-attempts 3 (the default) re-sends a request whose"
                + " answer was lost without asking the API, relying on it to honour the"
                + " idempotency key in header Idempotency-Key (add lookup:")
        .hasMessageContaining("set keys-honoured: true if the API replays", "max-attempts: 1");

    ConfigFileException blindLaterCall =
        loadFails(head + "    max-attempts: 1\n    resend-in-doubt-without-lookup: true\n");
    assertThat(blindLaterCall.keyPath())
        .isEqualTo("destinations.payments.resend-in-doubt-without-lookup");
    assertThat(blindLaterCall).hasMessageContaining("set keys-honoured: true");

    for (String fix :
        List.of(
            "    keys-honoured: true\n",
            "    max-attempts: 1\n",
            "    lookup: {path: '/payments/by-key/{key}'}\n")) {
      try (FencelineConfig config = ConfigFiles.load(directory, head + fix)) {
        assertThat(config.destination("payments").guarantee())
            .isEqualTo(dev.fenceline.spi.Guarantee.FENCED_AT_INTENT);
      }
    }
  }

  @Test
  void anUnsetBearerTokenVariableIsReportedWhenTheDestinationIsFirstUsed() {
    // Not at load: the file's other destinations must work where the variable is unset, and
    // `fenceline doctor` reports this one as not usable (DoctorExampleConfigTest).
    try (FencelineConfig config =
        ConfigFiles.load(
            directory,
            ConfigFiles.sqliteAndDirectory(directory)
                + """
                destinations:
                  payments:
                    type: http
                    base-uri: https://api.example.com
                    bearer-token-env: PAYMENTS_TOKEN
                    request: {path: /payments}
                    max-attempts: 1
                """)) {
      assertThatThrownBy(() -> config.destination("payments"))
          .isInstanceOf(ConfigFileException.class)
          .hasMessage(
              "Cannot configure destinations.payments.bearer-token-env at "
                  + at(13, 23)
                  + ": environment variable PAYMENTS_TOKEN is not set or blank (export"
                  + " PAYMENTS_TOKEN with the API's token before starting)");
    }
  }

  @Test
  void anUnknownAdapterTypeListsTheKnownTypes() {
    ConfigFileException error =
        loadFails(
            """
            stores:
              main:
                type: jbdc
            issuer: main
            """);

    assertThat(error.keyPath()).isEqualTo("stores.main.type");
    assertThat(error)
        .hasMessage(
            "Cannot configure stores.main.type at "
                + at(3, 11)
                + ": unknown store type \"jbdc\" (known types: fake-object-store, jdbc, vfs; check"
                + " the spelling, or add the adapter's jar to the class path)");
  }

  @Test
  void anUnknownStoreReferenceListsTheConfiguredStores() {
    ConfigFileException destination =
        loadFails(
            ConfigFiles.sqliteAndDirectory(directory)
                + """
                destinations:
                  reports:
                    store: report-dir
                """);
    assertThat(destination)
        .hasMessage(
            "Cannot configure destinations.reports.store at "
                + at(11, 12)
                + ": no store is called \"report-dir\" (configured stores: main, reports-dir)");

    ConfigFileException issuer =
        loadFails(
            ConfigFiles.sqliteAndDirectory(directory).replace("issuer: main", "issuer: mian"));
    assertThat(issuer.keyPath()).isEqualTo("issuer");
    assertThat(issuer).hasMessageContaining("no store is called \"mian\"");
  }

  @Test
  void aMissingRequiredKeyShowsAnExample() {
    ConfigFileException error =
        loadFails(
            """
            stores:
              main:
                type: jdbc
            issuer: main
            """);
    assertThat(error)
        .hasMessage(
            "Cannot configure stores.main.url at "
                + at(3, 5)
                + ": the key is missing or empty (add it, e.g. url:"
                + " jdbc:sqlite:/var/lib/fenceline/fenceline.db)");
  }

  @Test
  void brokenYamlAndDuplicateKeysArePlaced() {
    ConfigFileException syntax = loadFails("stores:\n  main: [unclosed\nissuer: main\n");
    assertThat(syntax.keyPath()).isEmpty();
    assertThat(syntax.getMessage())
        .startsWith("Cannot load " + directory.resolve("fenceline.yaml") + ":");
    assertThat(syntax).hasMessageContaining("not valid YAML");

    ConfigFileException duplicate =
        loadFails(ConfigFiles.sqliteAndDirectory(directory) + "issuer: main\n");
    assertThat(duplicate)
        .hasMessage(
            "Cannot configure issuer at "
                + at(9, 1)
                + ": the key is given twice, first at line 8 (remove one of them)");
  }

  @Test
  void aKeyTheAdapterRefusesWhenTheStoreOpensIsPlacedAtThatKey() {
    // fake-object-store is unknown to this module: its keys pass through to its factory, which
    // checks them when the store opens.
    String yaml =
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          bucket:
            type: fake-object-store
            probes: pass
        issuer: main
        destinations:
          reports: {store: bucket}
        """
            .formatted(directory.resolve("fenceline.db"));
    try (FencelineConfig config = ConfigFiles.load(directory, yaml)) {
      ConfigFileException error =
          catchThrowableOfType(ConfigFileException.class, () -> config.destination("reports"));

      assertThat(error.keyPath()).isEqualTo("stores.bucket.probes");
      assertThat(error)
          .hasMessage(
              "Cannot configure stores.bucket.probes at "
                  + at(7, 5)
                  + ": the fake-object-store adapter refused the store: Cannot configure"
                  + " fake-object-store adapter \"bucket\": unknown key \"probes\" (known keys:"
                  + " [probe])");
    }
  }

  @Test
  void aPathThatIsNotAFileSaysSo() {
    ConfigFileException error =
        catchThrowableOfType(
            ConfigFileException.class,
            () -> FencelineConfig.load(directory.resolve("missing.yaml"), name -> null));
    assertThat(error).hasMessageContaining("the file does not exist");
  }
}
