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
package dev.fenceline.junit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * docs/junit.md as a reader copies it: its main snippet is the story test this module runs, every
 * Java block compiles as it stands, starts with its imports and names their artifacts, and the
 * compiled story passes.
 */
class JunitPageTest {

  private static final Path ROOT = ReadmeExamples.repositoryRoot();
  private static final Path STORY =
      ROOT.resolve("junit/src/test/java/dev/fenceline/junit/story/StaleOwnerStoryTest.java");

  private final ReadmeExamples page = ReadmeExamples.load(ROOT.resolve("docs/junit.md"));

  @TempDir Path sources;

  @Test
  void theMainSnippetIsTheStoryTestThatRunsInTheBuild() throws IOException {
    String source = Files.readString(STORY, UTF_8);
    String withoutPackage = source.substring(source.indexOf("\n\n") + 2);

    assertThat(page.containing("class StaleOwnerStoryTest").text()).isEqualTo(withoutPackage);
  }

  @Test
  void everyJavaBlockCompilesAsItStandsImportsIncluded() throws IOException {
    assertThat(page.blocks()).isNotEmpty();

    assertThat(ReadmeExamples.compileAll(page.blocks(), sources)).isEmpty();
  }

  @Test
  void everyJavaBlockStartsWithItsImportsAndNamesTheirArtifacts() {
    assertThat(page.importProblems()).isEmpty();
  }

  @Test
  void theStoryAsThePageShowsItPasses() {
    Class<?> story = page.containing("class StaleOwnerStoryTest").compile();

    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(story))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.started(1).succeeded(1));
  }
}
