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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The requirement IDs R1 to R11 that code, tests and docs cite are defined in one place,
 * docs/requirements.md, and every citation names one of them (issue 20, item 4).
 */
class RequirementReferencesTest {

  /** "R3", "R11 c", "R2 to R4": a capital R and a number, standing alone. */
  private static final Pattern CITATION = Pattern.compile("\\bR([0-9]{1,2})\\b");

  /** Test methods named after a requirement: {@code r4_...}, {@code r11c_...}. */
  private static final Pattern TEST_NAME = Pattern.compile("\\bvoid r([0-9]{1,2})([a-z]?)_");

  private static final Pattern DEFINITION = Pattern.compile("(?m)^## R([0-9]{1,2}) \\S");

  private final Path root = repositoryRoot();

  @Test
  void theRequirementsPageDefinesR1ToR11InOrder() throws IOException {
    Matcher definition = DEFINITION.matcher(Files.readString(requirements(), UTF_8));
    List<Integer> defined = new ArrayList<>();
    while (definition.find()) {
      defined.add(Integer.parseInt(definition.group(1)));
    }
    assertThat(defined).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
  }

  @Test
  void everyCitedRequirementIsDefined() throws IOException {
    Set<String> undefined = new TreeSet<>();
    int citations = 0;
    for (Path file : sources()) {
      String text = Files.readString(file, UTF_8);
      Matcher cited = CITATION.matcher(text);
      while (cited.find()) {
        citations++;
        int number = Integer.parseInt(cited.group(1));
        if (number < 1 || number > 11) {
          undefined.add(root.relativize(file) + ": R" + number);
        }
      }
      Matcher test = TEST_NAME.matcher(text);
      while (test.find()) {
        citations++;
        int number = Integer.parseInt(test.group(1));
        boolean letterFits =
            test.group(2).isEmpty() || (number == 11 && "abcd".contains(test.group(2)));
        if (number < 1 || number > 11 || !letterFits) {
          undefined.add(root.relativize(file) + ": r" + number + test.group(2) + "_");
        }
      }
    }
    assertThat(citations)
        .as("citations found (is the scan looking at the sources?)")
        .isGreaterThan(50);
    assertThat(undefined)
        .as("citations of requirements docs/requirements.md does not define")
        .isEmpty();
  }

  @Test
  void theSpiAndTheReadmePointAtThePage() throws IOException {
    assertThat(
            Files.readString(root.resolve("spi/src/main/java/dev/fenceline/spi/package-info.java")))
        .contains("docs/requirements.md");
    assertThat(Files.readString(root.resolve("README.md"))).contains("docs/requirements.md");
  }

  private Path requirements() {
    return root.resolve("docs/requirements.md");
  }

  /** Every .java and .md file of the repository, build output and VCS data left out. */
  private List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> file.toString().endsWith(".java") || file.toString().endsWith(".md"))
          .filter(file -> !file.equals(requirements()))
          .filter(file -> DocsLinksTest.inSourceTree(root, file))
          .toList();
    }
  }

  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/requirements.md"))
          && Files.isRegularFile(dir.resolve("README.md"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "Cannot find docs/requirements.md above " + Path.of("").toAbsolutePath());
  }
}
