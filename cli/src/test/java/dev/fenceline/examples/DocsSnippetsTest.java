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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every code block of every documentation page (README.md, CONTRIBUTING.md, docs/*.md,
 * examples/*&#47;README.md) as a reader copies it (issue 22, item 4; the rules are in {@link
 * DocsRules}): Java blocks carry a snippet comment naming the test that runs them or the source
 * they are an excerpt of, and compile with the other blocks of their page, imports included; YAML
 * blocks load as Fenceline configurations; {@code fenceline} command lines parse; Maven
 * dependencies are BOM artifacts at the project's version. Each failure is one line {@code
 * page:line: rule N: ...}. The tests at the end plant a broken block of each kind and watch the
 * rule catch it.
 */
class DocsSnippetsTest {

  /**
   * {@code tryAcquire(...)} (or its efficiency twin) unwrapped without handling "held elsewhere".
   */
  static final Pattern UNWRAPPED_ACQUIRE =
      Pattern.compile("tryAcquire(?:ForEfficiency)?\\([^;]*?\\)\\s*\\.\\s*orElseThrow\\(\\s*\\)");

  private static final Pattern COMPILE_ERROR =
      Pattern.compile(".*line-(\\d+)[/\\\\][^:]*:(\\d+): ");

  private final Path root = ReadmeExamples.repositoryRoot();
  private final DocsRules rules = new DocsRules(root);

  @TempDir Path scratch;

  /** Rule 1: every Java block says which test runs it or which source it is an excerpt of. */
  @Test
  void everyJavaBlockCarriesASnippetCommentThatHolds() {
    List<String> problems = new ArrayList<>();
    int blocks = 0;
    for (ReadmeExamples.Fence fence : fences("java")) {
      blocks++;
      problems.addAll(rules.javaProblems(fence));
    }
    assertThat(blocks).as("Java blocks found (is the scan reading the pages?)").isGreaterThan(10);
    assertThat(problems).as(report(problems)).isEmpty();
  }

  /**
   * Rule 1: the Java blocks of each page compile together as they stand, imports included, against
   * the modules (this module's test class path has them all), and name the artifacts they import.
   * Excerpts and skeletons are not compiled; pages that need Spring, ShedLock or JUnit on the class
   * path are compiled by their own module's test.
   */
  @Test
  void theJavaBlocksOfEveryPageCompileTogetherAndNameTheirArtifacts() throws IOException {
    List<String> problems = new ArrayList<>();
    Map<String, List<ReadmeExamples.Block>> byPage = new LinkedHashMap<>();
    for (ReadmeExamples.Block block : ReadmeExamples.loadDocs().blocks()) {
      if (block.excerptOf().isEmpty() && !block.skeleton()) {
        byPage.computeIfAbsent(block.file(), page -> new ArrayList<>()).add(block);
      }
    }
    int compiled = 0;
    for (Map.Entry<String, List<ReadmeExamples.Block>> page : byPage.entrySet()) {
      if (DocsRules.OWN_MODULE_PAGES.contains(page.getKey())) {
        continue;
      }
      compiled += page.getValue().size();
      Path sources = Files.createDirectories(scratch.resolve("page-" + compiled));
      for (String error : ReadmeExamples.compileAll(page.getValue(), sources)) {
        problems.add(
            page.getKey() + ":" + pageLine(error) + ": rule 1: does not compile: " + error);
      }
      new ReadmeExamples(root.resolve(page.getKey()), page.getValue())
          .importProblems()
          .forEach(problem -> problems.add(problem + " (rule 1)"));
    }
    assertThat(compiled).as("Java blocks compiled").isGreaterThan(10);
    assertThat(problems).as(report(problems)).isEmpty();
  }

  /** Rule 2: every YAML block is a Fenceline configuration whose keys are all known. */
  @Test
  void everyYamlBlockLoadsAsAFencelineConfiguration() {
    List<String> problems = new ArrayList<>();
    List<ReadmeExamples.Fence> yaml = fences("yaml");
    for (ReadmeExamples.Fence fence : yaml) {
      problems.addAll(rules.yamlProblems(fence, scratch));
    }
    assertThat(yaml).as("YAML blocks found").hasSizeGreaterThanOrEqualTo(2);
    assertThat(problems).as(report(problems)).isEmpty();
  }

  /**
   * Rule 1 for blocks in other languages: a block of any language that says it is an excerpt of a
   * source (the Redis example's Lua script, say) matches that source line by line, as a Java
   * excerpt does.
   */
  @Test
  void everyExcerptInAnyLanguageMatchesItsSource() {
    List<String> problems = new ArrayList<>();
    int excerpts = 0;
    for (ReadmeExamples.Fence fence : allFences()) {
      if (fence.excerptOf().isPresent() && !DocsRules.language(fence).equals("java")) {
        excerpts++;
        problems.addAll(rules.javaProblems(fence));
      }
    }
    assertThat(excerpts).as("excerpts in languages other than Java").isPositive();
    assertThat(problems).as(report(problems)).isEmpty();
  }

  /** Rule 3: every {@code fenceline} command line of a bash block parses. */
  @Test
  void everyFencelineCommandLineParses() {
    List<String> problems = new ArrayList<>();
    int commands = 0;
    for (ReadmeExamples.Fence fence : fences("bash")) {
      commands += DocsRules.fencelineCommands(fence).size();
      problems.addAll(rules.bashProblems(fence));
    }
    assertThat(commands).as("fenceline command lines found").isGreaterThan(10);
    assertThat(problems).as(report(problems)).isEmpty();
  }

  /** Rule 4: Maven dependencies on Fenceline are BOM artifacts at the project's version. */
  @Test
  void everyFencelineDependencyIsABomArtifactAtTheProjectVersion() {
    List<String> problems = new ArrayList<>();
    for (ReadmeExamples.Fence fence : fences("xml")) {
      problems.addAll(rules.xmlProblems(fence));
    }
    assertThat(rules.bomArtifacts()).contains("fenceline-core", "fenceline-config");
    assertThat(problems).as(report(problems)).isEmpty();
  }

  /**
   * No example, in a page or in a Javadoc example, unwraps {@code tryAcquire(...)} with {@code
   * orElseThrow()}, which throws {@code NoSuchElementException: No value present} whenever another
   * worker holds the lease.
   */
  @Test
  void noBlockOrJavadocExampleUnwrapsTryAcquireWithOrElseThrow() throws IOException {
    List<String> problems = new ArrayList<>();
    for (ReadmeExamples.Block block : ReadmeExamples.loadDocs().blocks()) {
      if (UNWRAPPED_ACQUIRE.matcher(block.text()).find()) {
        problems.add(block.where() + ": tryAcquire(...).orElseThrow()");
      }
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file :
          files.filter(Files::isRegularFile).filter(DocsSnippetsTest::userFacing).toList()) {
        if (UNWRAPPED_ACQUIRE.matcher(documentation(file)).find()) {
          problems.add(root.relativize(file) + ": tryAcquire(...).orElseThrow() in an example");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  // The rules fail where they should: a broken block of each kind, planted in a page.

  @Test
  void rule1CatchesABlockWithoutCommentAMissingTestALookupThatIsNotThereAndAWrongExcerpt() {
    String page =
        """
        ```java
        static void a() {}
        ```

        <!-- snippet: run by cli/src/test/java/dev/fenceline/examples/NoSuchTest.java -->
        ```java
        static void b() {}
        ```

        <!-- snippet: run by cli/src/test/java/dev/fenceline/examples/ReadmeExampleTest.java -->
        ```java
        static void c() {}
        ```

        <!-- snippet: excerpt of spi/src/main/java/dev/fenceline/spi/WriteOutcome.java -->
        ```java
        public sealed interface WriteOutcome permits Applied, AlreadyApplied, RejectedStale {
          // ...
          ResourceId resource();
          ResourceId destination();
        }
        ```
        """;
    List<String> problems = new ArrayList<>();
    ReadmeExamples.fences(page, "planted.md").forEach(f -> problems.addAll(rules.javaProblems(f)));

    assertThat(problems)
        .hasSize(4)
        .satisfiesExactly(
            p -> assertThat(p).startsWith("planted.md:1: rule 1: ").contains("no snippet comment"),
            p -> assertThat(p).startsWith("planted.md:6: rule 1: ").contains("does not exist"),
            p ->
                assertThat(p)
                    .startsWith("planted.md:11: rule 1: ")
                    .contains("does not look this block up")
                    .contains("public class NightlyReport"),
            p ->
                assertThat(p)
                    .startsWith("planted.md:16: rule 1: ")
                    .endsWith(
                        "does not occur in spi/src/main/java/dev/fenceline/spi/WriteOutcome.java"
                            + " (after the lines before it): ResourceId destination(); (copy the"
                            + " source's line, or write `// ...` for elided code)"));
  }

  @Test
  void rule1AcceptsAnExcerptWhoseLinesOccurInOrder() {
    String excerpt =
        "public sealed interface WriteOutcome permits Applied, AlreadyApplied, RejectedStale {\n  // ...\n  ResourceId resource();\n}\n";
    String source =
        rules.read("spi/src/main/java/dev/fenceline/spi/WriteOutcome.java").orElseThrow();

    assertThat(DocsRules.excerptMismatch(excerpt, source)).isEmpty();
    assertThat(
            DocsRules.excerptMismatch("ResourceId resource();\npackage dev.fenceline.spi;", source))
        .as("out of order")
        .contains("package dev.fenceline.spi;");
  }

  @Test
  void rule2CatchesAnUnknownKeyAndAFragmentWithoutItsParents() {
    String page =
        """
        ```yaml
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:fenceline.db
            lock-timout: 8s
        issuer: main
        ```

        ```yaml
        ttl: 30s
        ```

        ```yaml
        spring:
          application:
            name: reports
        fenceline:
          stores:
            main:
              type: jdbc
              url: jdbc:sqlite:fenceline.db
          issuer: main
        ```
        """;
    List<String> problems = new ArrayList<>();
    ReadmeExamples.fences(page, "planted.md")
        .forEach(f -> problems.addAll(rules.yamlProblems(f, scratch)));

    assertThat(problems)
        .satisfiesExactly(
            p -> assertThat(p).startsWith("planted.md:1: rule 2: ").contains("lock-timout"),
            p -> assertThat(p).startsWith("planted.md:10: rule 2: ").contains("ttl"));
  }

  @Test
  void rule3CatchesAnUnknownOptionAnUnknownCommandAndAMissingRequiredOption() {
    String page =
        """
        ```bash
        fenceline doctor --config fenceline.yaml --advice
        ./fenceline publsh --config fenceline.yaml x.csv   # typo
        fenceline read --config fenceline.yaml \\
          --resource nightly-report > report.csv
        ./fenceline demo --ttl 3s
        FENCELINE_DEBUG=1 ./fenceline status --config fenceline.yaml nightly-report 2> err.log
        source <(fenceline completion)
        ```
        """;
    List<String> problems = new ArrayList<>();
    ReadmeExamples.fences(page, "planted.md").forEach(f -> problems.addAll(rules.bashProblems(f)));

    assertThat(problems)
        .satisfiesExactly(
            p -> assertThat(p).startsWith("planted.md:2: rule 3: ").contains("--advice"),
            p -> assertThat(p).startsWith("planted.md:3: rule 3: ").contains("publsh"),
            p -> assertThat(p).startsWith("planted.md:4: rule 3: ").contains("--destination"),
            p -> assertThat(p).startsWith("planted.md:6: rule 3: ").contains("--ttl"));
  }

  @Test
  void shellWordsFollowQuotesSubstitutionsAndOperators() {
    assertThat(
            DocsRules.fencelineCommands(
                "0 2 * * * fenceline run --operation \"report-$(date +\\%F)\" -- /opt/r.sh | tee x"))
        .containsExactly(List.of("run", "--operation", "report-$(date +\\%F)", "--", "/opt/r.sh"));
    assertThat(DocsRules.fencelineCommands("echo 'fenceline demo' # fenceline x")).isEmpty();
  }

  @Test
  void rule4CatchesAnArtifactTheBomDoesNotListAndAnotherVersion() {
    String page =
        """
        ```xml
        <dependency>
          <groupId>dev.fenceline</groupId>
          <artifactId>fenceline-redis</artifactId>
        </dependency>
        <dependency>
          <groupId>dev.fenceline</groupId>
          <artifactId>fenceline-core</artifactId>
          <version>0.0.9</version>
        </dependency>
        <dependency>
          <groupId>org.postgresql</groupId>
          <artifactId>postgresql</artifactId>
          <version>42.7.14</version>
        </dependency>
        ```
        """;
    List<String> problems = new ArrayList<>();
    ReadmeExamples.fences(page, "planted.md").forEach(f -> problems.addAll(rules.xmlProblems(f)));

    assertThat(problems)
        .satisfiesExactly(
            p -> assertThat(p).startsWith("planted.md:1: rule 4: ").contains("fenceline-redis"),
            p -> assertThat(p).startsWith("planted.md:1: rule 4: ").contains("0.0.9"));
  }

  @Test
  void theOrElseThrowScanFindsAnUnwrappedAcquireAcrossLines() {
    assertThat(UNWRAPPED_ACQUIRE.matcher("fenceline.tryAcquire(nightly).orElseThrow();").find())
        .isTrue();
    assertThat(
            UNWRAPPED_ACQUIRE
                .matcher("fenceline\n    .tryAcquire(ResourceId.of(\"a\"))\n    .orElseThrow()")
                .find())
        .isTrue();
    assertThat(
            UNWRAPPED_ACQUIRE
                .matcher("tryAcquire(r).orElseThrow(() -> new IllegalStateException(\"held\"))")
                .find())
        .isFalse();
  }

  /** The fenced blocks of {@code language} on every page. */
  private List<ReadmeExamples.Fence> fences(String language) {
    return allFences().stream()
        .filter(fence -> DocsRules.language(fence).equals(language))
        .toList();
  }

  /** The fenced blocks of every page, in any language. */
  private List<ReadmeExamples.Fence> allFences() {
    List<ReadmeExamples.Fence> found = new ArrayList<>();
    for (Path page : ReadmeExamples.pages()) {
      try {
        found.addAll(
            ReadmeExamples.fences(
                Files.readString(page, UTF_8), ReadmeExamples.relative(root, page)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return found;
  }

  /** The page line of a compile error in the block that starts at line N. */
  private static String pageLine(String error) {
    Matcher where = COMPILE_ERROR.matcher(error);
    return where.lookingAt()
        ? Integer.toString(Integer.parseInt(where.group(1)) + Integer.parseInt(where.group(2)) - 1)
        : "?";
  }

  private static String report(List<String> problems) {
    return problems.size()
        + " problem(s), page:line: rule: what to fix:\n"
        + String.join("\n", problems);
  }

  /** Markdown anywhere, and the main Java sources (their Javadoc examples), not build output. */
  private static boolean userFacing(Path file) {
    String path = file.toString().replace('\\', '/');
    if (path.contains("/target/") || path.contains("/.git/") || path.contains("/src/test/")) {
      return false;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".md") || (name.endsWith(".java") && path.contains("/src/main/java/"));
  }

  /** A Markdown file as it is; of a Java file only its comment lines (Javadoc examples). */
  private static String documentation(Path file) {
    try {
      String text = Files.readString(file, UTF_8);
      if (!file.toString().endsWith(".java")) {
        return text;
      }
      StringBuilder comments = new StringBuilder();
      text.lines()
          .map(String::strip)
          .filter(row -> row.startsWith("*") || row.startsWith("//"))
          .forEach(row -> comments.append(row).append('\n'));
      return comments.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
