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
package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The configuration checks that need every built-in adapter on the class path (this module's),
 * moved here from the config module's tests: the s3 store's keys, and the hints that list the types
 * playing a role, which the adapters' declared roles now make ({@code jdbc, zookeeper} issue
 * leases, {@code vfs} and {@code s3} hold files).
 */
class EveryAdapterConfigTest {

  @TempDir Path directory;

  private Path write(String yaml) {
    try {
      return Files.writeString(directory.resolve("fenceline.yaml"), yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ConfigFileException loadFails(String yaml) {
    return catchThrowableOfType(
        ConfigFileException.class, () -> FencelineConfig.load(write(yaml), name -> null).close());
  }

  /** A file holding only a store's mapping, read as {@code stores.bucket}. */
  private Section storeSection(String yaml) {
    return new Section(
        new Section.Source(name -> null, new Secrets()),
        "stores.bucket",
        YamlTreeReader.read(write(yaml)));
  }

  /** The values the s3 factory receives for {@code yaml}, after its own checks. */
  private Map<String, String> received(String yaml) {
    AdapterFactory s3 = AdapterRegistry.load().factory("s3");
    Map<String, String> values =
        DeclaredKeys.read(storeSection(yaml), s3.configKeys(), Set.of("type"));
    s3.validate("bucket", values);
    return values;
  }

  private static AdapterConfig settings(Map<String, String> values) {
    return AdapterConfig.of(AdapterRegistry.load().factory("s3"), "bucket", values);
  }

  // From HostileConfigTest (config module).

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "part-size: 16 megabytes | 3:12 | is not a size",
        "part-size: 1GiB | 3:12 | out of range (write a size from 5MiB (S3's smallest part) to 512MiB)",
        "multipart-threshold: 1KiB | 3:22 | out of range",
        "multipart-threshold: 3GiB | 3:22 | to 2GiB"
      })
  void anS3SizeTheAdapterWouldRefuseIsRefusedAtLoad(String line, String lineColumn, String phrase) {
    Path file = write("type: s3\nbucket: reports\n" + line.strip() + "\n");
    Section section = storeSection("type: s3\nbucket: reports\n" + line.strip() + "\n");
    AdapterFactory s3 = AdapterRegistry.load().factory("s3");

    ConfigFileException error =
        catchThrowableOfType(
            ConfigFileException.class,
            () -> DeclaredKeys.read(section, s3.configKeys(), Set.of("type")));

    assertThat(error).isNotNull();
    assertThat(error.getMessage()).contains(file + ":" + lineColumn).contains(phrase);
  }

  @Test
  void anIssuerOfATypeThatIssuesNoLeasesIsRefusedWithADestination() {
    Path file = Path.of("src/test/resources/hostile/issuer-vfs-with-destination.yaml");
    ConfigFileException error =
        catchThrowableOfType(
            ConfigFileException.class,
            () -> FencelineConfig.load(file, variable -> "not-used").close());

    assertThat(error).as("issuer-vfs-with-destination.yaml loads").isNotNull();
    assertThat(error.location().line() + ":" + error.location().column())
        .as(error.getMessage())
        .isEqualTo("8:9");
    assertThat(error.getMessage())
        .contains(file + ":8:9")
        .contains("issues leases: jdbc, zookeeper")
        .doesNotContain("hunter2");
  }

  // From ConfigRecordsTest (config module): what the s3 factory receives, and its defaults.

  @Test
  void s3Defaults() {
    Map<String, String> received = received("{bucket: reports}");
    AdapterConfig s3 = settings(received);
    assertThat(s3.required("bucket")).isEqualTo("reports");
    assertThat(s3.optional("prefix")).isEqualTo(Optional.empty());
    assertThat(s3.optional("region")).isEqualTo(Optional.empty());
    assertThat(s3.uri("endpoint")).isEqualTo(Optional.empty());
    assertThat(s3.bool("path-style")).contains(false);
    // Unset sizes and timeouts are the adapter's defaults, declared by it.
    assertThat(s3.duration("connect-timeout")).contains(Duration.ofSeconds(3));
    assertThat(s3.duration("socket-timeout")).contains(Duration.ofSeconds(10));
    assertThat(s3.duration("attempt-timeout")).contains(Duration.ofSeconds(10));
    assertThat(s3.duration("call-timeout")).contains(Duration.ofSeconds(20));
    assertThat(s3.number("multipart-threshold")).contains(16L << 20);
    assertThat(s3.number("part-size")).contains(8L << 20);
    assertThat(s3.duration("probe-cache")).contains(Duration.ofHours(24));
    assertThat(received).isEqualTo(Map.of("bucket", "reports"));
  }

  @Test
  void s3AllKeys() {
    Map<String, String> received =
        received(
            """
            {type: s3, bucket: reports, prefix: nightly, region: eu-central-1,
             endpoint: 'http://127.0.0.1:9000', path-style: true, connect-timeout: 1s,
             socket-timeout: 2s, attempt-timeout: 3s, call-timeout: 4s, multipart-threshold: 16MiB,
             part-size: 8MiB, probe-cache: 2h}
            """);
    AdapterConfig s3 = settings(received);
    assertThat(s3.required("bucket")).isEqualTo("reports");
    assertThat(s3.optional("prefix")).contains("nightly");
    assertThat(s3.optional("region")).contains("eu-central-1");
    assertThat(s3.uri("endpoint")).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(s3.bool("path-style")).contains(true);
    assertThat(s3.duration("connect-timeout")).contains(Duration.ofSeconds(1));
    assertThat(s3.duration("socket-timeout")).contains(Duration.ofSeconds(2));
    assertThat(s3.duration("attempt-timeout")).contains(Duration.ofSeconds(3));
    assertThat(s3.duration("call-timeout")).contains(Duration.ofSeconds(4));
    assertThat(s3.optional("multipart-threshold")).contains("16MiB");
    assertThat(s3.optional("part-size")).contains("8MiB");
    assertThat(s3.duration("probe-cache")).contains(Duration.ofHours(2));
    assertThat(received)
        .containsEntry("endpoint", "http://127.0.0.1:9000")
        .containsEntry("part-size", "8MiB")
        .containsEntry("call-timeout", "4s")
        .containsEntry("probe-cache", "2h")
        .hasSize(12);
    assertThat(s3.duration("probe-cache")).contains(Duration.ofSeconds(7200));
  }

  // From StrategyChoiceTest (config module).

  @Test
  void aStoreWithoutABlobStoreCannotHoldFiles() {
    String yaml =
        """
        stores:
          main: {type: jdbc, url: "jdbc:sqlite:%s"}
        issuer: main
        destinations:
          reports: {store: main}
        """
            .formatted(directory.resolve("fenceline.db"));
    // Refused by load: a jdbc store never offers a blob store, nothing needs to be opened.
    ConfigFileException error = loadFails(yaml);
    assertThat(error.keyPath()).isEqualTo("destinations.reports.store");
    assertThat(error.location().line()).isEqualTo(5);
    assertThat(error)
        .hasMessageEndingWith(
            ": store main (jdbc) offers no blob store to stage files in (point store at a vfs or"
                + " s3 store; a jdbc store serves as pointer-store or issuer)");
  }

  @Test
  void anIssuerThatIssuesNoLeasesIsRefusedAtTheIssuerKey() {
    String yaml =
        """
        stores:
          files: {type: vfs, uri: "%s"}
        issuer: files
        """
            .formatted(directory.toUri());
    // Refused by load, with no destination at all: a vfs store never issues leases.
    ConfigFileException error = loadFails(yaml);
    assertThat(error.keyPath()).isEqualTo("issuer");
    assertThat(error.location().line()).isEqualTo(3);
    assertThat(error)
        .hasMessageContaining("store \"files\" (vfs) offers no lease issuer")
        .hasMessageContaining("a type that issues leases: jdbc, zookeeper");
  }
}
