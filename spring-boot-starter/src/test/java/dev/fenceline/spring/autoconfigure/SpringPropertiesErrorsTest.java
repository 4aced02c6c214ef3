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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.config.ConfigFileException;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spring.TestApps;
import dev.fenceline.spring.health.FencelineHealthIndicator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Mistakes in {@code fenceline.*} properties stop the application with the message the YAML loader
 * gives for the same mistake in {@code fenceline.yaml}, at the line and column of application.yaml.
 */
class SpringPropertiesErrorsTest {

  private static final String RESOURCE = "Byte array resource [application.yaml]";

  @TempDir Path directory;

  /** A store every mistake below builds on. */
  private static final String MAIN =
      """
      stores:
        main:
          type: jdbc
          url: jdbc:sqlite:/tmp/fenceline-spring-errors.db
      """;

  static Stream<String> mistakes() {
    return Stream.of(
        MAIN
            + """
            lock-timout: 5s
        issuer: main
        """,
        MAIN
            + """
        issuer: main
        lease:
          ttl: soon
        """,
        MAIN
            + """
            pool-size: 4
        issuer: main
        """,
        MAIN
            + """
        issuer: mian
        """,
        MAIN
            + """
        issuer: main
        destinations:
          reports:
            store: main
            keep-versions: 0
        """);
  }

  @ParameterizedTest
  @MethodSource("mistakes")
  void aMistakeGivesTheYamlLoadersMessageAtItsLineInApplicationYaml(String fencelineYaml)
      throws Exception {
    Path file = directory.resolve("fenceline.yaml");
    Files.writeString(file, fencelineYaml);
    ConfigFileException fromFile =
        catchThrowableOfType(ConfigFileException.class, () -> FencelineConfig.load(file).close());
    String applicationYaml = "fenceline:\n" + fencelineYaml.indent(2);

    AtomicReference<Throwable> failure = new AtomicReference<>();
    TestApps.withYaml(TestApps.runner(), applicationYaml)
        .run(context -> failure.set(context.getStartupFailure()));
    ConfigFileException fromSpring =
        (ConfigFileException) find(failure.get(), ConfigFileException.class);

    assertThat(fromFile).isNotNull();
    assertThat(fromSpring.keyPath()).isEqualTo("fenceline." + fromFile.keyPath());
    assertThat(fromSpring.location().source()).isEqualTo(RESOURCE);
    // One line down: the "fenceline:" line on top.
    assertThat(fromSpring.location().line()).isEqualTo(fromFile.location().line() + 1);
    assertThat(withoutPlace(fromSpring.getMessage(), RESOURCE))
        .isEqualTo(
            withoutPlace(
                fromFile
                    .getMessage()
                    .replaceFirst("^Cannot configure ", "Cannot configure fenceline."),
                file.toString()));
  }

  @Test
  void aPlaceholderThatCannotBeResolvedIsNamedAtItsLine() {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    TestApps.withYaml(
            TestApps.runner(),
            """
            fenceline:
              stores:
                main:
                  type: jdbc
                  url: jdbc:sqlite:${FENCELINE_TEST_UNSET_DIRECTORY}/fenceline.db
              issuer: main
            """)
        .run(context -> failure.set(context.getStartupFailure()));

    assertThat(FencelineAutoConfigurationTest.rootCause(failure.get()).getMessage())
        .doesNotContain("Cannot configure");
    Throwable error = find(failure.get(), ConfigurationException.class);
    assertThat(error)
        .hasMessageStartingWith(
            "Cannot configure fenceline.stores.main.url at " + RESOURCE + ":5:12: ")
        .hasMessageContaining("FENCELINE_TEST_UNSET_DIRECTORY")
        .hasMessageEndingWith(
            "(set the property or environment variable it names, or give a default:"
                + " ${NAME:default})");
  }

  @Test
  void springPlaceholdersAndRelaxedNamesWork() {
    TestApps.withYaml(
            TestApps.runner(),
            """
            reports-home: %s
            fenceline:
              stores:
                main:
                  type: jdbc
                  url: jdbc:sqlite:${reports-home}/fenceline.db
              issuer: main
            """
                .formatted(directory))
        .withInitializer(
            context ->
                context
                    .getEnvironment()
                    .getPropertySources()
                    .addFirst(
                        new org.springframework.core.env.SystemEnvironmentPropertySource(
                            "test-systemEnvironment",
                            java.util.Map.of(
                                "FENCELINE_LEASE_HOLDER", "worker-from-the-environment"))))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              FencelineConfig config = context.getBean(FencelineConfig.class);
              assertThat(config.lease().holder()).isEqualTo("worker-from-the-environment");
              config.issuer();
              assertThat(directory.resolve("fenceline.db")).exists();
            });
  }

  @Test
  void aSecretFromAPlaceholderIsMaskedInErrorsAndHealthDetails() throws Exception {
    String token = "Tk9-secret-Value";
    String yaml =
        """
        fenceline:
          stores:
            main:
              type: jdbc
              url: jdbc:sqlite:%s/${API_TOKEN}/fenceline.db
          issuer: main
        """;

    // The directory named by the secret is a file: the store cannot be opened at startup.
    Path blocked = Files.writeString(directory.resolve(token), "not a directory");
    AtomicReference<Throwable> failure = new AtomicReference<>();
    TestApps.withYaml(TestApps.runner(), yaml.formatted(directory))
        .withPropertyValues("API_TOKEN=" + token)
        .run(context -> failure.set(context.getStartupFailure()));
    Throwable error = find(failure.get(), dev.fenceline.spi.StoreException.class);
    assertThat(error.getMessage())
        .startsWith("Cannot open store fenceline.stores.main (jdbc)")
        .contains(directory + "/**** for SQLite database ****")
        .doesNotContain(token);

    // It opens at startup, then its database goes away: the health details are masked.
    Files.delete(blocked);
    Path database = Files.createDirectories(directory.resolve(token)).resolve("fenceline.db");
    TestApps.withYaml(TestApps.runner(), yaml.formatted(directory))
        .withPropertyValues("API_TOKEN=" + token)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              FencelineHealthIndicator indicator = context.getBean(FencelineHealthIndicator.class);
              assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
              try (Stream<Path> files = Files.list(database.getParent())) {
                for (Path file : files.toList()) {
                  Files.delete(file);
                }
              }
              Files.delete(database.getParent());
              Files.writeString(database.getParent(), "not a directory");

              Health down = indicator.health();
              assertThat(down.getStatus()).isEqualTo(Status.DOWN);
              assertThat(String.valueOf(down.getDetails().get("issuer")))
                  .doesNotContain(token)
                  .contains("****");
            });
  }

  /** The outermost {@code type} in {@code failure}'s causes. */
  private static Throwable find(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return t;
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " in " + failure);
  }

  private static String withoutPlace(String message, String source) {
    return message.replaceAll(java.util.regex.Pattern.quote(source) + ":[0-9]+:[0-9]+", "<at>");
  }
}
