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
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of the README, as a newcomer copies it (issue 19, item 12): it compiles as it
 * stands, imports included, against the modules (this module's test class path has them all); it
 * names the Maven artifacts of what it imports; and no example, in the README or in a Javadoc
 * example, unwraps {@code tryAcquire(...)} with {@code orElseThrow()}, which throws {@code
 * NoSuchElementException: No value present} whenever another worker holds the lease.
 */
class ReadmeJavaSnippetsTest {

  /**
   * {@code tryAcquire(...)} (or its efficiency twin) unwrapped without handling "held elsewhere".
   */
  static final Pattern UNWRAPPED_ACQUIRE =
      Pattern.compile("tryAcquire(?:ForEfficiency)?\\([^;]*?\\)\\s*\\.\\s*orElseThrow\\(\\s*\\)");

  /** Pages compiled by their own module's test (Spring, ShedLock and JUnit on the class path). */
  private static final Pattern OWN_MODULE_PAGES =
      Pattern.compile("docs/(spring-boot|shedlock|junit)\\.md:.*");

  private final ReadmeExamples readme =
      new ReadmeExamples(
          ReadmeExamples.loadDocs().readme(),
          ReadmeExamples.loadDocs().blocks().stream()
              .filter(block -> !OWN_MODULE_PAGES.matcher(block.where()).matches())
              .toList());

  @TempDir Path sources;

  @Test
  void everyJavaBlockCompilesAsItStandsImportsIncluded() throws IOException {
    List<ReadmeExamples.Block> compiled =
        readme.blocks().stream().filter(block -> !block.skeleton()).toList();
    assertThat(compiled).as("Java blocks in README.md").hasSizeGreaterThanOrEqualTo(10);

    List<String> errors = ReadmeExamples.compileAll(compiled, sources);

    assertThat(errors).as("compile errors of the README's Java blocks").isEmpty();
  }

  @Test
  void everyJavaBlockStartsWithItsImportsAndNamesTheirArtifacts() {
    assertThat(readme.importProblems()).isEmpty();
  }

  @Test
  void noReadmeBlockOrJavadocExampleUnwrapsTryAcquireWithOrElseThrow() throws IOException {
    List<String> problems = new ArrayList<>();
    for (ReadmeExamples.Block block : readme.blocks()) {
      if (UNWRAPPED_ACQUIRE.matcher(block.text()).find()) {
        problems.add(block.where() + ": tryAcquire(...).orElseThrow()");
      }
    }
    Path root = ReadmeExamples.repositoryRoot();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file :
          files.filter(Files::isRegularFile).filter(ReadmeJavaSnippetsTest::userFacing).toList()) {
        String text = documentation(file);
        if (UNWRAPPED_ACQUIRE.matcher(text).find()) {
          problems.add(root.relativize(file) + ": tryAcquire(...).orElseThrow() in an example");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theScanFindsAnUnwrappedAcquireAcrossLines() {
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
