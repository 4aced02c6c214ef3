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

import dev.fenceline.core.Fenceline;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.StoreException;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@link ConfigTree} is read by the same code as a file: every mistake gives the file's message,
 * with the tree's key prefix and the value's own location.
 */
class ConfigTreeTest {

  private static final String SOURCE = "class path resource [application.yaml]";

  @TempDir Path directory;

  /** A store every mistake below builds on. */
  private static final String MAIN =
      """
      stores:
        main:
          type: jdbc
          url: jdbc:sqlite:/tmp/fenceline-tree.db
      """;

  static Stream<String> mistakes() {
    return Stream.of(
        // an unknown key of an adapter, with the closest known one
        MAIN
            + """
            lock-timout: 5s
        issuer: main
        """,
        // a value of the wrong type
        MAIN
            + """
        issuer: main
        lease:
          ttl: soon
        """,
        // a rule between keys, checked by the code of the lease section
        MAIN
            + """
        issuer: main
        lease:
          ttl: 30s
          renew-every: 40s
        """,
        // an unknown store type
        """
        stores:
          main:
            type: jdcb
        issuer: main
        """,
        // the issuer missing
        MAIN
            + """
        """,
        // a refusal by the adapter itself (a PostgreSQL-only key on SQLite)
        MAIN
            + """
            pool-size: 4
        issuer: main
        """,
        // a destination on a store that does not exist
        MAIN
            + """
        issuer: main
        destinations:
          reports:
            store: nowhere
        """,
        // an unknown top-level key
        MAIN
            + """
        issuer: main
        allow-unguardd: true
        """);
  }

  @ParameterizedTest
  @MethodSource("mistakes")
  void aMistakeInATreeGivesTheFilesMessageAtTheValuesLocation(String yaml) {
    Path file = ConfigFiles.write(directory, yaml);
    ConfigFileException fromFile =
        catchThrowableOfType(ConfigFileException.class, () -> FencelineConfig.load(file).close());
    ConfigFileException fromTree =
        catchThrowableOfType(
            ConfigFileException.class, () -> FencelineConfig.loader(treeOf(file)).load().close());

    assertThat(fromFile).isNotNull();
    assertThat(fromTree).isNotNull();
    assertThat(fromTree.keyPath()).isEqualTo("fenceline." + fromFile.keyPath());
    if (fromTree.location().line() > 0) {
      // A value's place; a key's own place is the line of its value (a tree has no keys' places).
      assertThat(fromTree.location().source()).isEqualTo(SOURCE);
      assertThat(fromTree.location().line()).isEqualTo(fromFile.location().line());
    } else {
      // A key missing at the top: the tree has no place for it but its source.
      assertThat(fromTree.location()).isEqualTo(ConfigLocation.of("the Spring environment"));
    }
    assertThat(withoutPlaces(fromTree.getMessage(), SOURCE, "the Spring environment"))
        .isEqualTo(
            withoutPlaces(
                    fromFile
                        .getMessage()
                        .replaceFirst("^Cannot configure ", "Cannot configure fenceline."),
                    file.toString(),
                    null)
                .replace("Cannot configure fenceline.the file", "Cannot configure fenceline"));
  }

  /** {@code message} with each {@code source:line:column} (and {@code other}) as {@code <at>}. */
  private static String withoutPlaces(String message, String source, String other) {
    String text =
        message.replaceAll(java.util.regex.Pattern.quote(source) + ":[0-9]+:[0-9]+", "<at>");
    return other == null ? text : text.replace(other, "<at>");
  }

  @Test
  void aProvidedStoreIsTheDefaultIssuerAndOpensOnlyWhenNeeded() {
    AtomicInteger opened = new AtomicInteger();
    InMemoryLeaseIssuer issuer =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), java.time.Clock.systemUTC());
    ConfigTree tree =
        ConfigTree.builder("the test", "fenceline")
            .value(List.of("lease", "holder"), "worker-a", ConfigLocation.of("the test"))
            .build();

    try (FencelineConfig config =
        FencelineConfig.loader(tree)
            .store(
                "application",
                "jdbc",
                "the application's DataSource",
                () -> {
                  opened.incrementAndGet();
                  return Adapter.builder(() -> {}).leaseIssuer(issuer).build();
                })
            .defaultIssuer("application")
            .load()) {
      assertThat(config.storeNames()).containsExactly("application");
      assertThat(opened).hasValue(0);
      assertThat(config.issuer()).isSameAs(issuer);
      assertThat(config.issuer()).isSameAs(issuer);
      assertThat(opened).hasValue(1);
      assertThat(config.lease().holder()).isEqualTo("worker-a");
      assertThat(config.source()).isEqualTo("the test");
      assertThatThrownBy(config::file)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "Cannot name the file of the configuration from the test: it was not loaded from a"
                  + " file (use source())");
    }
  }

  @Test
  void aStoreOfTheSameNameInTheTreeReplacesTheProvidedOne() {
    ConfigTree tree =
        ConfigTree.builder("the test", "fenceline")
            .value(List.of("stores", "application", "type"), "jdbc", ConfigLocation.of("a"))
            .value(
                List.of("stores", "application", "url"),
                "jdbc:sqlite:" + directory.resolve("own.db"),
                ConfigLocation.of("b"))
            .build();
    AtomicInteger opened = new AtomicInteger();

    try (FencelineConfig config =
        FencelineConfig.loader(tree)
            .store(
                "application",
                "jdbc",
                "the application's DataSource",
                () -> {
                  opened.incrementAndGet();
                  throw new AssertionError("the provided store was opened");
                })
            .defaultIssuer("application")
            .load()) {
      assertThat(config.issuer().id()).isNotBlank();
      assertThat(opened).hasValue(0);
      assertThat(directory.resolve("own.db")).exists();
    }
  }

  @Test
  void aProvidedStoreThatCannotOpenIsNamedWithItsDescription() {
    ConfigTree tree = ConfigTree.builder("the test", "fenceline").build();
    try (FencelineConfig config =
        FencelineConfig.loader(tree)
            .store(
                "application",
                "jdbc",
                "the application's DataSource",
                () -> {
                  throw new StoreException("Cannot open the pool: connection refused", null);
                })
            .defaultIssuer("application")
            .load()) {
      assertThatThrownBy(config::issuer)
          .isInstanceOf(StoreException.class)
          .hasMessage(
              "Cannot open store fenceline.stores.application (jdbc) configured at the"
                  + " application's DataSource: Cannot open the pool: connection refused");
    }
  }

  @Test
  void withoutAProvidedStoreTheTreeNeedsItsOwn() {
    ConfigTree tree = ConfigTree.builder("the Spring environment", "fenceline").build();

    assertThatThrownBy(() -> FencelineConfig.loader(tree).load())
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(
            "Cannot configure fenceline.stores at the Spring environment: no store is configured"
                + " (add one, e.g. stores: {main: {type: jdbc, url: \"jdbc:sqlite:fenceline.db\"}})");
  }

  @Test
  void theGivenFencelineIsTheConfigurationsAndIsNotClosedWithIt() {
    InMemoryLeaseIssuer issuer =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), java.time.Clock.systemUTC());
    Fenceline given = Fenceline.builder().issuer(issuer).holder("worker-a").build();
    FencelineConfig config =
        FencelineConfig.loader(ConfigTree.builder("the test", "").build())
            .store(
                "application",
                "jdbc",
                "test issuer",
                () -> Adapter.builder(() -> {}).leaseIssuer(issuer).build())
            .defaultIssuer("application")
            .fenceline(() -> given)
            .load();

    assertThat(config.fenceline()).isSameAs(given);
    config.close();
    assertThat(given.tryAcquire(dev.fenceline.spi.ResourceId.of("still-open"))).isPresent();
    given.close();
  }

  @Test
  void valuesAreNotInterpolated() {
    ConfigTree tree =
        ConfigTree.builder("the test", "fenceline")
            .value(List.of("lease", "holder"), "${HOLDER}", ConfigLocation.of("a"))
            .build();

    try (FencelineConfig config =
        FencelineConfig.loader(tree)
            .environment(name -> "worker-a")
            .store("s", "jdbc", "test", () -> null)
            .defaultIssuer("s")
            .load()) {
      // As given: a host such as Spring resolves its own placeholders before.
      assertThat(config.lease().holder()).isEqualTo("${HOLDER}");
    }
  }

  @Test
  void aPathGivenTwiceOrAsValueAndMappingIsRefusedNamingBothPlaces() {
    ConfigTree.Builder twice =
        ConfigTree.builder("env", "fenceline")
            .value(List.of("issuer"), "main", new ConfigLocation("a.yaml", 1, 9));
    assertThatThrownBy(
            () -> twice.value(List.of("issuer"), "other", new ConfigLocation("b.yaml", 2, 9)))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(
            "Cannot configure fenceline.issuer at b.yaml:2:9: it is given a second value here, and"
                + " a single value at a.yaml:1:9 (keep one of them)");

    ConfigTree.Builder both =
        ConfigTree.builder("env", "fenceline")
            .value(List.of("lease"), "30s", new ConfigLocation("a.yaml", 3, 8));
    assertThatThrownBy(
            () -> both.value(List.of("lease", "ttl"), "30s", new ConfigLocation("a.yaml", 4, 8)))
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(
            "Cannot configure fenceline.lease at a.yaml:4:8: it is a mapping of keys here, and a"
                + " single value at a.yaml:3:8 (keep one of them)");
  }

  @Test
  void aListWhereAValueBelongsIsRefusedAsInAFile() {
    ConfigTree tree =
        ConfigTree.builder("env", "fenceline")
            .value(List.of("issuer", "[0]"), "main", new ConfigLocation("a.yaml", 2, 5))
            .value(List.of("issuer", "[1]"), "other", new ConfigLocation("a.yaml", 3, 5))
            .build();

    assertThatThrownBy(
            () -> FencelineConfig.loader(tree).store("main", "jdbc", "test", () -> null).load())
        .isInstanceOf(ConfigFileException.class)
        .hasMessage(
            "Cannot configure fenceline.issuer at a.yaml:2:5: expected a single value, found a"
                + " list (write it on the same line, e.g. issuer: value)");
  }

  @Test
  void anEmptyValueIsAsAKeyWithNothingAfterIt() {
    ConfigTree tree =
        ConfigTree.builder("env", "fenceline")
            .value(List.of("lease"), "", new ConfigLocation("a.yaml", 2, 7))
            .build();
    try (FencelineConfig config =
        FencelineConfig.loader(tree)
            .store("main", "jdbc", "test", () -> null)
            .defaultIssuer("main")
            .load()) {
      assertThat(config.lease().ttl()).isEqualTo(LeaseConfig.DEFAULT_TTL);
    }
  }

  @Test
  void everyKeyOutsideStoresAndDestinationsIsRead() {
    assertThat(FencelineConfig.keys())
        .containsExactly(
            "allow-fenced-at-intent",
            "allow-idempotent-only",
            "allow-unguarded",
            "destinations",
            "issuer",
            "lease.holder",
            "lease.renew-every",
            "lease.ttl",
            "stores");
    ConfigTree.Builder tree = ConfigTree.builder("env", "fenceline");
    tree.value(List.of("allow-fenced-at-intent"), true, ConfigLocation.of("a"));
    tree.value(List.of("allow-idempotent-only"), true, ConfigLocation.of("b"));
    tree.value(List.of("allow-unguarded"), true, ConfigLocation.of("c"));
    tree.value(List.of("issuer"), "main", ConfigLocation.of("d"));
    tree.value(List.of("lease", "holder"), "worker-a", ConfigLocation.of("e"));
    tree.value(List.of("lease", "renew-every"), "5s", ConfigLocation.of("f"));
    tree.value(List.of("lease", "ttl"), "20s", ConfigLocation.of("g"));
    try (FencelineConfig config =
        FencelineConfig.loader(tree.build()).store("main", "jdbc", "test", () -> null).load()) {
      assertThat(config.allowUnguarded()).isTrue();
      assertThat(config.allowIdempotentOnly()).isTrue();
      assertThat(config.allowFencedAtIntent()).isTrue();
      assertThat(config.lease())
          .isEqualTo(
              new LeaseConfig(
                  java.time.Duration.ofSeconds(20), java.time.Duration.ofSeconds(5), "worker-a"));
    }
  }

  /** The file's values as a tree, each at its line and column in {@link #SOURCE}. */
  private static ConfigTree treeOf(Path file) {
    ConfigTree.Builder tree = ConfigTree.builder("the Spring environment", "fenceline");
    add(tree, new ArrayList<>(), YamlTreeReader.read(file));
    return tree.build();
  }

  private static void add(ConfigTree.Builder tree, List<String> path, ConfigNode node) {
    if (node instanceof ConfigNode.Mapping mapping) {
      for (Map.Entry<ConfigNode.Key, ConfigNode> entry : mapping.entries().entrySet()) {
        path.add(entry.getKey().name());
        add(tree, path, entry.getValue());
        path.remove(path.size() - 1);
      }
    } else if (node instanceof ConfigNode.Sequence sequence) {
      for (int i = 0; i < sequence.items().size(); i++) {
        path.add("[" + i + "]");
        add(tree, path, sequence.items().get(i));
        path.remove(path.size() - 1);
      }
    } else if (node instanceof ConfigNode.Scalar scalar) {
      Object value =
          switch (scalar.type()) {
            case NULL -> null;
            case BOOLEAN -> Boolean.valueOf(scalar.text());
            case NUMBER -> new java.math.BigDecimal(scalar.text());
            case STRING -> scalar.text();
          };
      ConfigLocation at = scalar.location();
      tree.value(List.copyOf(path), value, new ConfigLocation(SOURCE, at.line(), at.column()));
    }
  }
}
