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

import dev.fenceline.cli.CommandLines;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md against the code in cli/src/main/java: its exit-code table is {@code ExitCode}'s
 * (number, name and the line {@code fenceline --help} prints, in order), and every command has a
 * section {@code ## fenceline COMMAND} that names each of its options.
 */
class CliReferenceTest {

  private static final String EXIT_TABLE_HEADER = "| exit | name | meaning |";

  private final String page = read("docs/cli.md");

  @Test
  void theExitCodeTableIsTheCodes() {
    assertThat(exitTable(page))
        .as("the exit-code table of docs/cli.md (%s), row by row", EXIT_TABLE_HEADER)
        .containsExactlyElementsOf(CommandLines.exitCodes());
  }

  @Test
  void aChangedOrMissingExitCodeRowFails() {
    String changed =
        page.replace("| 4 | `LEASE_NOT_ACQUIRED` |", "| 4 | `LEASE_NOT_HELD` |")
            .replaceFirst("\\| 143 \\|[^\\n]*\\n", "");

    assertThat(exitTable(changed)).isNotEqualTo(CommandLines.exitCodes());
    assertThat(exitTable(changed)).hasSize(CommandLines.exitCodes().size() - 1);
  }

  @Test
  void everyCommandHasASectionThatNamesEachOfItsOptions() {
    assertThat(undocumented(page)).isEmpty();
  }

  @Test
  void anOptionMissingFromItsSectionIsNamed() {
    String withoutObserve = page.replace("--observe", "--watch");

    assertThat(undocumented(withoutObserve)).containsExactly("doctor: --observe");
  }

  /** "command: --option" for each option the page's section of that command does not name. */
  private static List<String> undocumented(String page) {
    Map<String, String> sections = sections(page);
    List<String> missing = new ArrayList<>();
    CommandLines.commandsAndOptions()
        .forEach(
            (command, options) -> {
              String section = sections.get(command);
              if (section == null) {
                missing.add(command + ": no section ## fenceline " + command);
                return;
              }
              options.stream()
                  .filter(option -> option.startsWith("-"))
                  .filter(option -> !section.contains(option))
                  .forEach(option -> missing.add(command + ": " + option));
            });
    return missing;
  }

  /** The text under each {@code ## fenceline COMMAND} heading, up to the next {@code ## }. */
  private static Map<String, String> sections(String page) {
    Map<String, String> sections = new LinkedHashMap<>();
    String[] parts = page.split("(?m)^## ");
    for (String part : parts) {
      if (part.startsWith("fenceline ")) {
        String command = part.substring("fenceline ".length(), part.indexOf('\n')).strip();
        sections.put(command, part);
      }
    }
    return sections;
  }

  /** The rows of the exit-code table: number, name (without backticks), meaning. */
  private static List<List<String>> exitTable(String page) {
    List<List<String>> rows = new ArrayList<>();
    int start = page.indexOf(EXIT_TABLE_HEADER);
    assertThat(start).as("docs/cli.md has a table headed " + EXIT_TABLE_HEADER).isNotNegative();
    List<String> lines = page.substring(start).lines().skip(2).toList();
    for (String line : lines) {
      if (!line.startsWith("|")) {
        break;
      }
      String[] cells = line.substring(1, line.length() - 1).split("(?<!\\\\)\\|");
      rows.add(
          List.of(
              cells[0].strip(),
              cells[1].strip().replace("`", ""),
              cells[2].strip().replace("\\|", "|")));
    }
    return rows;
  }

  private static String read(String path) {
    try {
      return Files.readString(ReadmeExamples.repositoryRoot().resolve(path), UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
