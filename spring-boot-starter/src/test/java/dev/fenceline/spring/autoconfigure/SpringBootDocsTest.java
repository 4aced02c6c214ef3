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
package dev.fenceline.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spring.TestApps;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;

/**
 * {@code docs/spring-boot.md} as a reader copies it: its Java compiles and runs in an application
 * with the starter; each {@code application.yaml} block is read and checked by the starter.
 */
class SpringBootDocsTest {

  private static final Path PAGE = ReadmeExamples.repositoryRoot().resolve("docs/spring-boot.md");

  @TempDir Path directory;

  @Test
  void theJavaCompilesAndTheNightlyReportPublishesInAnApplication() throws Exception {
    ReadmeExamples page = ReadmeExamples.load(PAGE);
    List<ReadmeExamples.Block> blocks = page.blocks();
    ReadmeExamples.Block nightlyReport = page.containing("public class NightlyReport");
    Path sources = Files.createDirectories(directory.resolve("sources"));
    assertThat(ReadmeExamples.compileAll(blocks, sources)).as("compile errors").isEmpty();
    assertThat(Files.readString(PAGE))
        .contains("Maven: `dev.fenceline:fenceline-spring-boot-starter`");

    String defaultYaml = yamlBlocks().get(0);
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {sources.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
      Class<?> report = loader.loadClass(nightlyReport.className());
      TestApps.withYaml(TestApps.onDataSource(), defaultYaml)
          .withPropertyValues("REPORTS_HOME=" + directory)
          .withClassLoader(loader)
          .withBean(report)
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                Object job = context.getBean(report);
                report.getMethod("publish").invoke(job);
                try (Stream<Path> files = Files.walk(directory.resolve("reports"))) {
                  assertThat(
                          files
                              .filter(Files::isRegularFile)
                              .map(SpringBootDocsTest::read)
                              .filter(text -> text.startsWith("report of ")))
                      .hasSize(1);
                }
              });
    }
  }

  @Test
  void everyApplicationYamlBlockIsAValidConfiguration() throws IOException {
    List<String> blocks = yamlBlocks();
    assertThat(blocks).hasSize(2);
    for (String yaml : blocks) {
      StandardEnvironment environment = new StandardEnvironment();
      for (PropertySource<?> source :
          new YamlPropertySourceLoader()
              .load(
                  "application.yaml", new ByteArrayResource(yaml.getBytes(), "application.yaml"))) {
        environment.getPropertySources().addFirst(source);
      }
      environment
          .getPropertySources()
          .addFirst(
              new MapPropertySource(
                  "test",
                  java.util.Map.of(
                      "REPORTS_HOME", directory.toString(), "FENCELINE_DB_PASSWORD", "secret")));
      FencelineConfig.Loader loader = FencelineConfig.loader(SpringConfigTree.read(environment));
      if (environment.containsProperty("spring.datasource.url")) {
        loader
            .store(
                "application",
                "jdbc",
                "the application's DataSource",
                () -> Adapter.builder(() -> {}).build())
            .defaultIssuer("application");
      }
      // Reads and checks every key, opening nothing.
      try (FencelineConfig config = loader.load()) {
        assertThat(config.destinationNames()).containsExactly("reports");
      }
    }
  }

  private static List<String> yamlBlocks() throws IOException {
    Matcher blocks = Pattern.compile("(?ms)^```yaml\\n(.*?)^```$").matcher(Files.readString(PAGE));
    List<String> found = new ArrayList<>();
    while (blocks.find()) {
      found.add(blocks.group(1));
    }
    return found;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
