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
package dev.fenceline.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadmeExamplesTest {

  @TempDir Path dir;

  @Test
  void loadsTheJavaBlocksOfAnyPageAndNamesItInFailures() throws Exception {
    Path page =
        Files.writeString(
            dir.resolve("junit.md"),
            "# Page\n\nMaven: `fenceline-junit`\n\n```java\nimport java.util.List;\n\n"
                + "static int one() {\n  return List.of(1).get(0);\n}\n```\n");

    ReadmeExamples examples = ReadmeExamples.load(page);

    ReadmeExamples.Block block = examples.containing("static int one()");
    assertThat(block.line()).isEqualTo(6);
    assertThat(block.where()).isEqualTo("junit.md:6");
    assertThat(block.namesArtifact("fenceline-junit")).isTrue();
    assertThat(block.imports()).containsExactly("java.util.List");
    assertThat(block.replacing(java.util.Map.of("get(0)", "get(0) + 1")).where())
        .isEqualTo("junit.md:6");
    assertThatThrownBy(() -> examples.containing("absent"))
        .hasMessage("junit.md has 0 Java blocks containing absent, not 1");
  }

  @Test
  void importProblemsNameABlockWithoutImportsAndAnArtifactTheTextDoesNotName() throws Exception {
    Path page =
        Files.writeString(
            dir.resolve("page.md"),
            "Maven: `fenceline-core`\n\n```java\nimport dev.fenceline.core.Fenceline;\n"
                + "import dev.fenceline.junit.FencelineLab;\n\nclass A {}\n```\n\n"
                + "```java\nclass B {}\n```\n");

    assertThat(ReadmeExamples.load(page).importProblems())
        .containsExactly(
            "page.md:4: imports dev.fenceline.junit.FencelineLab but the text before it does not"
                + " name `fenceline-junit` (in its Maven: line)",
            "page.md:11: the block does not start with its imports");
  }

  @Test
  void theReadmeKeepsItsNameAndDocsBlocksPointAtTheirPage() {
    ReadmeExamples docs = ReadmeExamples.loadDocs();

    assertThat(docs.readme().getFileName()).hasToString("README.md");
    assertThat(docs.blocks())
        .isNotEmpty()
        .allMatch(
            block ->
                block
                    .where()
                    .matches(
                        "(README\\.md|CONTRIBUTING\\.md|docs/[a-z0-9-]+\\.md"
                            + "|examples/[a-z0-9-]+/README\\.md):\\d+"))
        .anyMatch(block -> block.where().startsWith("docs/s3.md:"));
  }

  @Test
  void theSnippetCommentOnTheLineBeforeAFenceIsReadOntoBlocksAndFences() throws Exception {
    String markdown =
        "Text\n\n<!-- snippet: run by cli/src/test/java/A.java -->\n```java\nimport a.B;\n```\n\n"
            + "<!-- snippet: excerpt of spi/src/main/java/C.java -->\n```java skeleton\nclass C {}\n```\n"
            + "\n```java\nimport d.E;\n```\n\n  ```yaml\n  lease:\n    ttl: 1s\n  ```\n";
    Path page = Files.writeString(dir.resolve("page.md"), markdown);

    List<ReadmeExamples.Block> blocks = ReadmeExamples.load(page).blocks();
    List<ReadmeExamples.Fence> fences = ReadmeExamples.fences(markdown, "page.md");

    assertThat(blocks)
        .extracting(ReadmeExamples.Block::runBy)
        .containsExactly(
            Optional.of("cli/src/test/java/A.java"), Optional.empty(), Optional.empty());
    assertThat(blocks)
        .extracting(ReadmeExamples.Block::excerptOf)
        .containsExactly(
            Optional.empty(), Optional.of("spi/src/main/java/C.java"), Optional.empty());
    assertThat(fences)
        .extracting(f -> f.where() + " " + f.language() + " " + f.info() + " " + f.snippet())
        .containsExactly(
            "page.md:4 java  run by cli/src/test/java/A.java",
            "page.md:9 java skeleton excerpt of spi/src/main/java/C.java",
            "page.md:13 java  ",
            "page.md:17 yaml  ");
    assertThat(fences.get(3).text()).isEqualTo("lease:\n  ttl: 1s\n");
  }

  @Test
  void theJunitModuleIsMappedToItsArtifact() {
    assertThat(
            ReadmeExamples.artifactOf("static dev.fenceline.junit.FencelineAssertions.assertThat"))
        .contains("fenceline-junit");
  }
}
