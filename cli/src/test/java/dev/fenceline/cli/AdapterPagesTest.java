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
package dev.fenceline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.ConfigReference;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter pages under {@code docs/} share one outline, and each page's {@code ## YAML keys}
 * holds the keys tables {@link ConfigReference#section} generates from the declarations (between
 * {@code <!-- keys:begin <type> -->} and {@code <!-- keys:end -->}), so a page cannot drift from
 * the code. To rewrite the tables after changing a declaration, run {@link #REGENERATE}.
 */
class AdapterPagesTest {

  static final String REGENERATE =
      "mvn -B -pl cli -am verify -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dtest=AdapterPagesTest -Dfenceline.docs.write=true";

  /** The headings every adapter page has, in this order; {@code ## Details} may follow. */
  static final List<String> OUTLINE =
      List.of(
          "When to use it",
          "Coordinates",
          "Java example",
          "YAML keys",
          "How it is fenced",
          "Costs",
          "What it does not prevent",
          "Tests that prove it");

  /** Each adapter page and the store types and destination kinds whose keys it shows. */
  static final Map<String, List<String>> PAGES =
      new LinkedHashMap<>(
          Map.of(
              "docs/jdbc.md", List.of("jdbc"),
              "docs/staged-files.md", List.of("staged", "vfs"),
              "docs/s3.md", List.of("s3"),
              "docs/zookeeper.md", List.of("zookeeper"),
              "docs/http.md", List.of("http")));

  /**
   * Destination kinds no built-in adapter page shows: {@code fenced} takes a store's own fenced
   * destination, which no built-in adapter offers (docs/writing-an-adapter.md shows one).
   */
  static final Set<String> WITHOUT_PAGE = Set.of("fenced");

  private static final Pattern KEYS =
      Pattern.compile("<!-- keys:begin ([a-z0-9-]+) -->\\n(.*?)<!-- keys:end -->", Pattern.DOTALL);

  private static final Path ROOT = ReadmeExamples.repositoryRoot();

  /** The variables the pages' YAML examples name. */
  private static final Map<String, String> ENVIRONMENT =
      Map.of(
          "ZK_PASSWORD", "not-a-real-password",
          "PGPASSWORD", "not-a-real-password",
          "PARTNER_API_TOKEN", "not-a-real-token");

  @TempDir Path directory;

  @Test
  void everyAdapterPageHasTheOutlineHeadingsInOrder() throws IOException {
    List<String> problems = new ArrayList<>();
    for (String page : PAGES.keySet()) {
      problems.addAll(outlineProblems(page, Files.readString(ROOT.resolve(page))));
    }
    assertThat(problems).as("adapter pages whose outline differs").isEmpty();
  }

  @Test
  void everyPagesKeysTablesAreTheOnesTheDeclarationsGive() throws IOException {
    List<AdapterFactory> adapters = builtInAdapters();
    boolean write = Boolean.getBoolean("fenceline.docs.write");
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, List<String>> page : PAGES.entrySet()) {
      Path file = ROOT.resolve(page.getKey());
      String text = Files.readString(file);
      String generated = withTables(text, adapters);
      if (write && !generated.equals(text)) {
        Files.writeString(file, generated);
        text = generated;
      }
      problems.addAll(keysProblems(page.getKey(), text, page.getValue(), adapters));
    }
    assertThat(problems)
        .as(
            "keys tables that differ from the declarations; paste the tables shown, or run: %s",
            REGENERATE)
        .isEmpty();
  }

  @Test
  void everyBuiltInStoreTypeAndDestinationKindHasAnAdapterPage() {
    Set<String> types = new TreeSet<>();
    builtInAdapters().forEach(adapter -> types.add(adapter.name()));
    types.addAll(List.of("staged", "http", "fenced"));
    types.removeAll(WITHOUT_PAGE);
    Set<String> shown = new TreeSet<>();
    PAGES.values().forEach(shown::addAll);
    assertThat(shown).isEqualTo(types);
  }

  /** YAML blocks marked as run by this test load with the configuration loader. */
  @Test
  void theAdapterPagesYamlExamplesLoad() throws IOException {
    int loaded = 0;
    for (String page : PAGES.keySet()) {
      for (String yaml : yamlBlocks(Files.readString(ROOT.resolve(page)))) {
        Path file = Files.writeString(directory.resolve("fenceline-" + loaded + ".yaml"), yaml);
        try (FencelineConfig config = FencelineConfig.load(file, ENVIRONMENT::get)) {
          assertThat(config.storeNames()).as(page + ": " + yaml).isNotEmpty();
        }
        loaded++;
      }
    }
    assertThat(loaded).as("YAML blocks on the adapter pages").isPositive();
  }

  @Test
  void theChecksCatchAHandEditedRowAndAMissingHeading() {
    List<AdapterFactory> adapters = builtInAdapters();
    String page =
        "## When to use it\n## Coordinates\n## Java example\n## YAML keys\n\n"
            + "<!-- keys:begin s3 -->\n"
            + ConfigReference.section(adapters, "s3")
            + "<!-- keys:end -->\n\n"
            + "## How it is fenced\n## Costs\n## What it does not prevent\n"
            + "## Tests that prove it\n\n[test](../adapters/s3/pom.xml)\n## Details\n";
    assertThat(outlineProblems("p.md", page)).isEmpty();
    assertThat(keysProblems("p.md", page, List.of("s3"), adapters)).isEmpty();

    // A row edited by hand: its default changed.
    String row =
        ConfigReference.section(adapters, "s3")
            .lines()
            .filter(line -> line.contains("| `connect-timeout` |"))
            .findFirst()
            .orElseThrow();
    String edited = page.replace(row, row.replace("| duration | `", "| duration | `1"));
    assertThat(edited).isNotEqualTo(page);
    assertThat(keysProblems("p.md", edited, List.of("s3"), adapters))
        .singleElement()
        .asString()
        .contains("p.md: the keys of type s3 differ")
        .contains(row);
    assertThat(withTables(edited, adapters)).isEqualTo(page);

    assertThat(outlineProblems("p.md", page.replace("## Costs\n", "")))
        .singleElement()
        .asString()
        .contains("p.md: headings [When to use it, Coordinates");
    assertThat(outlineProblems("p.md", page.replace("## Details\n", "## Notes\n"))).hasSize(1);
    assertThat(keysProblems("p.md", page, List.of("s3", "vfs"), adapters))
        .containsExactly("p.md: no <!-- keys:begin vfs --> ... <!-- keys:end --> markers");
  }

  /** The page's {@code ##} headings outside code blocks, in order. */
  static List<String> headings(String markdown) {
    List<String> headings = new ArrayList<>();
    boolean fenced = false;
    for (String line : markdown.lines().toList()) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.startsWith("## ")) {
        headings.add(line.substring(3).strip());
      }
    }
    return headings;
  }

  static List<String> outlineProblems(String page, String markdown) {
    List<String> headings = headings(markdown);
    List<String> withDetails = new ArrayList<>(OUTLINE);
    withDetails.add("Details");
    if (headings.equals(OUTLINE) || headings.equals(withDetails)) {
      return List.of();
    }
    return List.of(
        page + ": headings " + headings + ", expected " + OUTLINE + " and optionally Details");
  }

  static List<String> keysProblems(
      String page, String markdown, List<String> types, List<AdapterFactory> adapters) {
    Map<String, String> tables = new LinkedHashMap<>();
    Matcher keys = KEYS.matcher(markdown);
    while (keys.find()) {
      tables.put(keys.group(1), keys.group(2));
    }
    List<String> problems = new ArrayList<>();
    int yamlKeys = markdown.indexOf("\n## YAML keys\n");
    int next = yamlKeys < 0 ? -1 : markdown.indexOf("\n## ", yamlKeys + 1);
    for (String type : types) {
      String table = tables.get(type);
      int at = markdown.indexOf("<!-- keys:begin " + type + " -->");
      if (table == null) {
        problems.add(page + ": no <!-- keys:begin " + type + " --> ... <!-- keys:end --> markers");
      } else if (yamlKeys < 0 || at < yamlKeys || (next >= 0 && at > next)) {
        problems.add(page + ": the keys of type " + type + " are not under ## YAML keys");
      } else {
        String generated = ConfigReference.section(adapters, type);
        if (!table.equals(generated)) {
          problems.add(page + ": the keys of type " + type + " differ; they are:\n" + generated);
        }
      }
    }
    return problems;
  }

  /** {@code markdown} with every marked table replaced by the generated one. */
  static String withTables(String markdown, List<AdapterFactory> adapters) {
    Matcher keys = KEYS.matcher(markdown);
    StringBuilder result = new StringBuilder();
    while (keys.find()) {
      keys.appendReplacement(
          result,
          Matcher.quoteReplacement(
              "<!-- keys:begin "
                  + keys.group(1)
                  + " -->\n"
                  + ConfigReference.section(adapters, keys.group(1))
                  + "<!-- keys:end -->"));
    }
    keys.appendTail(result);
    return result.toString();
  }

  /**
   * The {@code ```yaml} blocks marked {@code <!-- snippet: run by ...AdapterPagesTest.java -->}.
   */
  static List<String> yamlBlocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    List<String> lines = markdown.lines().toList();
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).strip().equals("```yaml")
          && lines.get(i - 1).contains("snippet: run by")
          && lines.get(i - 1).contains("AdapterPagesTest.java")) {
        StringBuilder block = new StringBuilder();
        for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
          block.append(lines.get(i)).append('\n');
        }
        blocks.add(block.toString());
      }
    }
    return blocks;
  }

  /** The adapters a user gets, not this module's test stores. */
  static List<AdapterFactory> builtInAdapters() {
    AdapterRegistry registry = AdapterRegistry.load();
    return registry.names().stream()
        .map(registry::factory)
        .filter(factory -> !fromThisModulesTests(factory))
        .toList();
  }

  private static boolean fromThisModulesTests(AdapterFactory factory) {
    return Objects.equals(
        factory.getClass().getProtectionDomain().getCodeSource().getLocation(),
        AdapterPagesTest.class.getProtectionDomain().getCodeSource().getLocation());
  }
}
