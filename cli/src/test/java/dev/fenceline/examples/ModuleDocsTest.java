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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.tck.ReadmeExamples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every module of the root pom has a docs page (issue 22: "every module has a docs page"): {@link
 * #PAGES} maps each to a page, or a section of one, and the page and its heading exist. A module
 * added to the pom without a page, or a page that moved, fails here by name.
 */
class ModuleDocsTest {

  /** Module (as the root pom lists it) → its page, relative to the repository root. */
  static final Map<String, String> PAGES =
      Map.ofEntries(
          Map.entry("bom", "README.md#maven-coordinates"),
          Map.entry("spi", "docs/writing-an-adapter.md"),
          Map.entry("core", "docs/concepts.md"),
          Map.entry("tck", "docs/writing-an-adapter.md"),
          Map.entry("staging", "docs/staged-files.md"),
          Map.entry("adapters/jdbc", "docs/jdbc.md"),
          Map.entry("adapters/vfs", "docs/staged-files.md"),
          Map.entry("adapters/cas", "docs/cas.md"),
          Map.entry("adapters/locking", "docs/locking.md"),
          Map.entry("adapters/zookeeper", "docs/zookeeper.md"),
          Map.entry("adapters/s3", "docs/s3.md"),
          Map.entry("adapters/http", "docs/http.md"),
          Map.entry("config", "docs/configuration.md"),
          Map.entry("junit", "docs/junit.md"),
          Map.entry("spring-boot-starter", "docs/spring-boot.md"),
          Map.entry("shedlock", "docs/shedlock.md"),
          Map.entry("chaos", "docs/chaos.md"),
          Map.entry("cli", "docs/cli.md"),
          Map.entry("integration-tests", "CONTRIBUTING.md"),
          Map.entry("release-check", "CONTRIBUTING.md#cutting-a-release"),
          Map.entry("benchmarks", "docs/benchmarks.md"));

  private final Path root = ReadmeExamples.repositoryRoot();

  @Test
  void everyModuleOfTheRootPomHasADocsPage() {
    List<String> modules = new DocsRules(root).modules();
    assertThat(modules).as("modules of the root pom").contains("spi", "cli");

    assertThat(problems(modules)).isEmpty();
  }

  @Test
  void aModuleWithoutAPageOrWithAMissingPageIsNamed() {
    assertThat(problems(List.of("adapters/redis", "examples/no-such-example", "cli")))
        .containsExactly(
            "adapters/redis: no docs page is mapped to this module (add it to"
                + " ModuleDocsTest.PAGES, and write the page)",
            "examples/no-such-example: its page examples/no-such-example/README.md does not exist");
  }

  /** One line per module without a page, or whose page or section does not exist. */
  private List<String> problems(List<String> modules) {
    List<String> problems = new ArrayList<>();
    for (String module : modules) {
      String page = module.startsWith("examples/") ? module + "/README.md" : PAGES.get(module);
      if (page == null) {
        problems.add(
            module
                + ": no docs page is mapped to this module (add it to ModuleDocsTest.PAGES, and"
                + " write the page)");
        continue;
      }
      for (String problem :
          DocsLinksTest.problems(
              root, root.resolve("README.md"), new DocsLinksTest.Link(0, page))) {
        String why = problem.substring(problem.indexOf("rule 5: ") + "rule 5: ".length());
        problems.add(
            module
                + ": its page "
                + (why.contains(" does not exist") ? page + " does not exist" : why));
      }
    }
    return problems;
  }
}
