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
package dev.fenceline.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule 5 of the docs (issue 22, item 4): every relative link of every Markdown file of the
 * repository (build output and VCS data left out), {@code [x](path)}, {@code [x](path#anchor)},
 * {@code [x](#anchor)} or a reference definition {@code [x]: path}, resolves to a file or directory
 * of the repository, and its anchor to a heading of the target page (GitHub's slugs). Links in code
 * blocks and code spans are text, not links.
 */
class DocsLinksTest {

  private static final Pattern INLINE_LINK =
      Pattern.compile(
          "!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

  private static final Pattern REFERENCE =
      Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");

  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

  private static final Pattern HEADING =
      Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");

  private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

  private final Path root = ReadmeExamples.repositoryRoot();

  @TempDir Path scratch;

  @Test
  void everyRelativeLinkOfEveryMarkdownFileResolves() throws IOException {
    List<String> problems = new ArrayList<>();
    List<Path> files = markdownFiles(root);
    int links = 0;
    for (Path file : files) {
      List<Link> found = links(file);
      links += found.size();
      for (Link link : found) {
        problems.addAll(problems(root, file, link));
      }
    }
    assertThat(files).as("Markdown files").hasSizeGreaterThan(15);
    assertThat(links).as("relative links found (is the scan reading the files?)").isGreaterThan(50);
    assertThat(problems)
        .as(
            problems.size()
                + " broken link(s), file:line: rule 5: ...\n"
                + String.join("\n", problems))
        .isEmpty();
  }

  @Test
  void theDocsIndexLinksEveryPageOfDocs() throws IOException {
    Path index = root.resolve("docs/README.md");
    Set<String> linked = new java.util.TreeSet<>();
    for (Link link : links(index)) {
      linked.add(link.target().replaceFirst("#.*", ""));
    }
    List<String> unlisted = new ArrayList<>();
    try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
      pages
          .map(page -> page.getFileName().toString())
          .filter(name -> name.endsWith(".md") && !name.equals("README.md"))
          .filter(name -> !linked.contains(name))
          .sorted()
          .forEach(unlisted::add);
    }
    assertThat(unlisted).as("pages of docs/ that docs/README.md does not link").isEmpty();
  }

  @Test
  void aBrokenPathAMissingAnchorAndALinkOutOfTheRepositoryAreCaught() throws IOException {
    Path repo = Files.createDirectories(scratch.resolve("repo"));
    Files.createDirectories(repo.resolve("docs"));
    Files.writeString(
        repo.resolve("docs/page.md"),
        "# A page\n\n## Keeping the JDBC tables bounded (retention)\n\n## `fenceline demo`\n");
    Path readme =
        Files.writeString(
            repo.resolve("README.md"),
            """
            # Title

            [ok](docs/page.md#keeping-the-jdbc-tables-bounded-retention) [ok](docs/page.md#fenceline-demo)
            [ok](docs/) [ok](#title) [web](https://example.com/x.md) `[code](nowhere.md)`
            [gone](docs/gone.md)
            [anchor](docs/page.md#no-such-heading)

            ```
            [in a block](nowhere.md)
            ```
            [out](../../etc/passwd) [self](#missing)
            [ref]: docs/missing.md
            """);

    List<String> problems = new ArrayList<>();
    for (Link link : links(readme)) {
      problems.addAll(problems(repo, readme, link));
    }

    assertThat(problems)
        .containsExactly(
            "README.md:5: rule 5: docs/gone.md does not exist (fix the path, relative to README.md)",
            "README.md:6: rule 5: docs/page.md has no heading #no-such-heading (its anchors:"
                + " a-page, keeping-the-jdbc-tables-bounded-retention, fenceline-demo)",
            "README.md:11: rule 5: ../../etc/passwd points outside the repository",
            "README.md:11: rule 5: README.md has no heading #missing (its anchors: title)",
            "README.md:12: rule 5: docs/missing.md does not exist (fix the path, relative to"
                + " README.md)");
  }

  @Test
  void slugsAreGitHubs() {
    assertThat(slugs("# Requirements R1–R11\n## R1 Tokens\n## `@Fenced` jobs\n## A\n## A\n"))
        .containsExactly("requirements-r1r11", "r1-tokens", "fenced-jobs", "a", "a-1");
  }

  record Link(int line, String target) {}

  /**
   * Every Markdown file of {@code root}, build output, VCS data and hidden directories left out.
   */
  static List<Path> markdownFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".md"))
          .filter(file -> inSourceTree(root, file))
          .sorted()
          .toList();
    }
  }

  /** Whether {@code file} lies outside build output ({@code target}), VCS data and hidden dirs. */
  static boolean inSourceTree(Path root, Path file) {
    for (Path part : root.relativize(file)) {
      String name = part.toString();
      if (name.equals("target") || name.startsWith(".") || name.equals("node_modules")) {
        return false;
      }
    }
    return true;
  }

  /** The relative links of a Markdown file, outside code blocks and code spans. */
  static List<Link> links(Path file) {
    List<Link> links = new ArrayList<>();
    List<String> rows = read(file).lines().toList();
    boolean inFence = false;
    for (int i = 0; i < rows.size(); i++) {
      String row = rows.get(i);
      if (FENCE.matcher(row).lookingAt()) {
        inFence = !inFence;
        continue;
      }
      if (inFence) {
        continue;
      }
      String text = row.replaceAll("`[^`]*`", "``");
      for (Pattern pattern : List.of(INLINE_LINK, REFERENCE)) {
        Matcher link = pattern.matcher(text);
        while (link.find()) {
          String target = link.group(1);
          if (!target.isEmpty() && !SCHEME.matcher(target).find()) {
            links.add(new Link(i + 1, target));
          }
        }
      }
    }
    return links;
  }

  /** What is wrong with one link of {@code file}, one line each; empty if it resolves. */
  static List<String> problems(Path root, Path file, Link link) {
    String where = ReadmeExamples.relative(root, file) + ":" + link.line() + ": rule 5: ";
    int hash = link.target().indexOf('#');
    String path =
        URLDecoder.decode(hash < 0 ? link.target() : link.target().substring(0, hash), UTF_8);
    String anchor = hash < 0 ? null : link.target().substring(hash + 1);
    Path target = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
    if (!target.startsWith(root)) {
      return List.of(where + path + " points outside the repository");
    }
    if (!Files.exists(target)) {
      return List.of(
          where
              + path
              + " does not exist (fix the path, relative to "
              + ReadmeExamples.relative(root, file)
              + ")");
    }
    if (anchor == null || anchor.isEmpty()) {
      return List.of();
    }
    if (!target.getFileName().toString().endsWith(".md")) {
      return anchor.matches("L\\d+(-L\\d+)?")
          ? List.of()
          : List.of(where + path + " is not a Markdown page, so it has no anchor #" + anchor);
    }
    Set<String> anchors = slugs(read(target));
    if (anchors.contains(anchor)) {
      return List.of();
    }
    return List.of(
        where
            + (path.isEmpty() ? ReadmeExamples.relative(root, file) : path)
            + " has no heading #"
            + anchor
            + " (its anchors: "
            + String.join(", ", anchors)
            + ")");
  }

  /** The anchors GitHub makes of a page's headings (and its {@code <a name>} anchors). */
  static Set<String> slugs(String markdown) {
    Set<String> slugs = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean inFence = false;
    for (String row : markdown.lines().toList()) {
      if (FENCE.matcher(row).lookingAt()) {
        inFence = !inFence;
        continue;
      }
      if (inFence) {
        continue;
      }
      Matcher html = HTML_ANCHOR.matcher(row);
      while (html.find()) {
        slugs.add(html.group(1));
      }
      Matcher heading = HEADING.matcher(row);
      if (heading.matches()) {
        String slug =
            heading
                .group(2)
                .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\- _]", "")
                .replace(' ', '-');
        int count = seen.merge(slug, 1, Integer::sum);
        slugs.add(count == 1 ? slug : slug + "-" + (count - 1));
      }
    }
    return slugs;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
