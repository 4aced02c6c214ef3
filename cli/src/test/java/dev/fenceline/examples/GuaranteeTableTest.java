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

import dev.fenceline.spi.Guarantee;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The guarantee table, shown on the README (the front page) and on docs/guarantees.md: the two
 * copies are the same, each guarantee it names is a {@link Guarantee} of the code, and each class
 * it names in its first column exists in the sources.
 */
class GuaranteeTableTest {

  private static final String HEADER =
      "| destination | guarantee | what is checked where | tested by |";

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  private final Path root = ReadmeExamples.repositoryRoot();

  @Test
  void theReadmeAndTheGuaranteesPageShowTheSameTable() throws IOException {
    assertThat(table("docs/guarantees.md")).isEqualTo(table("README.md"));
  }

  @Test
  void theTableNamesGuaranteesAndClassesOfTheCode() throws IOException {
    Set<String> guarantees =
        Arrays.stream(Guarantee.values()).map(Enum::name).collect(Collectors.toSet());
    Set<String> classes = sourceClasses();
    List<String> problems = new ArrayList<>();
    List<String> rows = table("README.md");
    assertThat(rows).hasSizeGreaterThan(10);
    for (String row : rows) {
      String[] cells = row.substring(1).split("\\|");
      Matcher guarantee = CODE.matcher(cells[1]);
      if (guarantee.find() && !guarantees.contains(guarantee.group(1))) {
        problems.add(
            "README.md: guarantee "
                + guarantee.group(1)
                + " is not a Guarantee ("
                + guarantees
                + ")");
      }
      Matcher named = CODE.matcher(cells[0]);
      while (named.find()) {
        if (!classes.contains(named.group(1))) {
          problems.add("README.md: class " + named.group(1) + " is not in any src/main/java");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  /** The rows of the table headed {@link #HEADER} on {@code page}. */
  private List<String> table(String page) throws IOException {
    String text = Files.readString(root.resolve(page), UTF_8);
    int start = text.indexOf(HEADER);
    assertThat(start).as(page + " has the guarantee table").isNotNegative();
    return text.substring(start).lines().skip(2).takeWhile(line -> line.startsWith("|")).toList();
  }

  /** The simple names of every class in the repository's main sources. */
  private Set<String> sourceClasses() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(file -> file.toString().replace('\\', '/').contains("/src/main/java/"))
          .filter(file -> !file.toString().contains("/target/"))
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".java"))
          .map(name -> name.substring(0, name.length() - ".java".length()))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
