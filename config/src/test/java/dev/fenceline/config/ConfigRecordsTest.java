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

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.jdbc.JdbcAdapterFactory;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One defaults test and one all-keys test per config record and per store section: a store
 * section's values are what its factory receives (as written, checked against its declarations),
 * read with the declared defaults. The s3 store's two tests run where its adapter is on the class
 * path (S3StoreKeysTest in the cli module).
 */
class ConfigRecordsTest {

  @TempDir Path directory;

  /** The mapping of {@code yaml} as a section, with {@code environment}. */
  private Section section(String yaml, Map<String, String> environment) {
    Path file = ConfigFiles.write(directory, yaml);
    return new Section(
        new Section.Source(environment::get, new Secrets()), "x", YamlTreeReader.read(file));
  }

  private Section section(String yaml) {
    return section(yaml, Map.of());
  }

  /** The values a store section hands its factory, after the factory's own checks. */
  private Map<String, String> received(AdapterFactory factory, Section section) {
    Map<String, String> values =
        DeclaredKeys.read(
            section.withSecretKeys(DeclaredKeys.secretKeys(factory.configKeys())),
            factory.configKeys(),
            Set.of("type"));
    factory.validate("x", values);
    return values;
  }

  /** Those values with the factory's declared defaults. */
  private static AdapterConfig settings(AdapterFactory factory, Map<String, String> values) {
    return AdapterConfig.of(factory, "x", values);
  }

  /** A destination section of {@code kind}, read against the kind's declarations. */
  private AdapterConfig destination(String kind, String yaml) {
    DestinationKind declared = DestinationKinds.find(kind).orElseThrow();
    return AdapterConfig.of(
        kind,
        "x",
        DeclaredKeys.read(section(yaml), declared.keys(), Set.of("type")),
        declared.keys());
  }

  private static AdapterFactory factory(String type) {
    return AdapterRegistry.load().factory(type);
  }

  @Test
  void leaseDefaults() {
    LeaseConfig lease = LeaseConfig.from(section("{}"));
    assertThat(lease.ttl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(lease.renewEvery()).isEqualTo(Duration.ofSeconds(10));
    assertThat(lease.holder())
        .isEqualTo(LeaseConfig.defaultHolder())
        .endsWith(":" + ProcessHandle.current().pid());
  }

  @Test
  void leaseAllKeys() {
    assertThat(LeaseConfig.from(section("{ttl: 2m, renew-every: 500ms, holder: w@h}")))
        .isEqualTo(new LeaseConfig(Duration.ofMinutes(2), Duration.ofMillis(500), "w@h"));
    assertThat(LeaseConfig.from(section("{ttl: 1h}")).renewEvery())
        .isEqualTo(Duration.ofMinutes(20));
    assertThat(LeaseConfig.from(section("{ttl: 9s, renew-every: 0}")).renewEvery()).isZero();
  }

  @Test
  void jdbcDefaults() {
    AdapterFactory jdbc = factory("jdbc");
    Map<String, String> received = received(jdbc, section("{type: jdbc, url: 'jdbc:sqlite:a.db'}"));
    assertThat(received).isEqualTo(Map.of("url", "jdbc:sqlite:a.db"));
    AdapterConfig sqlite = settings(jdbc, received);
    assertThat(sqlite.required("url")).isEqualTo("jdbc:sqlite:a.db");
    assertThat(sqlite.optional("user")).isEqualTo(Optional.empty());
    assertThat(sqlite.optional("password")).isEqualTo(Optional.empty());
    assertThat(sqlite.number("pool-size")).isEqualTo(Optional.empty());
    assertThat(sqlite.duration("lock-timeout")).contains(Duration.ofSeconds(8));
    assertThat(sqlite.duration("statement-timeout")).contains(Duration.ofSeconds(10));
    assertThat(sqlite.duration("connect-timeout")).contains(Duration.ofSeconds(5));
    assertThat(sqlite.duration("login-timeout")).contains(Duration.ofSeconds(8));
    assertThat(sqlite.duration("socket-timeout")).contains(Duration.ofSeconds(12));
    assertThat(sqlite.duration("migration-timeout")).contains(Duration.ofMinutes(10));
    assertThat(sqlite.bool("unsafe-allow-epoch-rollback-on-crash")).contains(false);
    assertThat(sqlite.duration("receipt-retention")).isEqualTo(Optional.empty());
    assertThat(sqlite.number("pointer-versions")).isEqualTo(Optional.empty());
    assertThat(sqlite.duration("prune-every")).isEqualTo(Optional.empty());
    // PostgreSQL without pool-size: the factory pools with its default size.
    assertThat(received(jdbc, section("{url: 'jdbc:postgresql://db/app'}")))
        .doesNotContainKey("pool-size");
    assertThat(JdbcAdapterFactory.DEFAULT_POOL_SIZE).isEqualTo(10);
  }

  @Test
  void jdbcAllKeys() {
    AdapterFactory jdbc = factory("jdbc");
    Map<String, String> received =
        received(
            jdbc,
            section(
                """
                type: jdbc
                url: jdbc:postgresql://db/app
                user: app
                password: ${DB_PASSWORD}
                pool-size: 4
                lock-timeout: 5s
                statement-timeout: 1m
                connect-timeout: 2s
                login-timeout: 3s
                socket-timeout: 1500ms
                migration-timeout: 30m
                unsafe-allow-epoch-rollback-on-crash: true
                receipt-retention: 7d
                pointer-versions: 16
                prune-every: 1h
                """,
                Map.of("DB_PASSWORD", "pw")));
    AdapterConfig all = settings(jdbc, received);
    assertThat(all.required("url")).isEqualTo("jdbc:postgresql://db/app");
    assertThat(all.optional("user")).contains("app");
    assertThat(all.optional("password")).contains("pw");
    assertThat(all.number("pool-size")).contains(4L);
    assertThat(all.duration("lock-timeout")).contains(Duration.ofSeconds(5));
    assertThat(all.duration("statement-timeout")).contains(Duration.ofMinutes(1));
    assertThat(all.duration("connect-timeout")).contains(Duration.ofSeconds(2));
    assertThat(all.duration("login-timeout")).contains(Duration.ofSeconds(3));
    assertThat(all.duration("socket-timeout")).contains(Duration.ofMillis(1500));
    assertThat(all.duration("migration-timeout")).contains(Duration.ofMinutes(30));
    assertThat(all.bool("unsafe-allow-epoch-rollback-on-crash")).contains(true);
    assertThat(all.duration("receipt-retention")).contains(Duration.ofDays(7));
    assertThat(all.number("pointer-versions")).contains(16L);
    assertThat(all.duration("prune-every")).contains(Duration.ofHours(1));
    // Handed on as written; the numbers are the ones the old flat keys carried.
    assertThat(received)
        .containsEntry("pool-size", "4")
        .containsEntry("statement-timeout", "1m")
        .containsEntry("socket-timeout", "1500ms")
        .containsEntry("migration-timeout", "30m")
        .containsEntry("password", "pw")
        .containsEntry("receipt-retention", "7d")
        .containsEntry("pointer-versions", "16")
        .containsEntry("prune-every", "1h")
        .hasSize(14);
    assertThat(all.duration("statement-timeout")).contains(Duration.ofSeconds(60));
    assertThat(all.duration("migration-timeout")).contains(Duration.ofSeconds(1800));
    assertThat(all.duration("receipt-retention")).contains(Duration.ofSeconds(604800));
    assertThat(all.duration("prune-every")).contains(Duration.ofSeconds(3600));
  }

  @Test
  void vfsDefaults() {
    AdapterFactory vfs = factory("vfs");
    AdapterConfig files = settings(vfs, received(vfs, section("{uri: 'file:///srv/reports'}")));
    assertThat(files.required("uri")).isEqualTo("file:///srv/reports");
    assertThat(files.optional("user")).isEqualTo(Optional.empty());
    assertThat(files.optional("password")).isEqualTo(Optional.empty());
    assertThat(files.bool("strict-host-key-checking")).contains(true);
    assertThat(files.duration("timeout")).contains(Duration.ofSeconds(30));
    assertThat(files.bool("allow-case-folding")).contains(false);
  }

  @Test
  void vfsAllKeysAreTakenByTheVfsAdapter() {
    AdapterFactory vfs = factory("vfs");
    String uri = directory.resolve("reports").toUri().toString();
    Map<String, String> local =
        received(
            vfs,
            section(
                """
                {type: vfs, uri: '%s', allow-case-folding: true}
                """
                    .formatted(uri)));
    AdapterConfig files = settings(vfs, local);
    assertThat(files.required("uri")).isEqualTo(uri);
    assertThat(files.optional("user")).isEqualTo(Optional.empty());
    assertThat(files.optional("password")).isEqualTo(Optional.empty());
    assertThat(files.bool("strict-host-key-checking")).contains(true);
    assertThat(files.duration("timeout")).contains(Duration.ofSeconds(30));
    assertThat(files.bool("allow-case-folding")).contains(true);
    // Every key the factory declares has a value for it (the SFTP ones their defaults), and it
    // opens the store with what it received.
    assertThat(
            vfs.configKeys().stream()
                .map(key -> key.name())
                .filter(key -> !key.equals("user") && !key.equals("password"))
                .filter(key -> files.optional(key).isEmpty()))
        .isEmpty();
    try (Adapter adapter = AdapterRegistry.load().create("vfs", "files", local)) {
      assertThat(adapter.blobStore()).isPresent();
    }
    Map<String, String> sftpReceived =
        received(
            vfs,
            section(
                "{uri: 'sftp://h/srv', user: u, password: p, strict-host-key-checking: false,"
                    + " timeout: 5s, allow-case-folding: true}"));
    AdapterConfig sftp = settings(vfs, sftpReceived);
    assertThat(sftp.required("uri")).isEqualTo("sftp://h/srv");
    assertThat(sftp.bool("strict-host-key-checking")).contains(false);
    assertThat(sftp.duration("timeout")).contains(Duration.ofSeconds(5));
    assertThat(sftp.bool("allow-case-folding")).contains(true);
    assertThat(sftp.optional("user")).contains("u");
    assertThat(sftp.optional("password")).contains("p");
    assertThat(sftpReceived).containsEntry("user", "u").containsEntry("password", "p");
  }

  @Test
  void stagedDefaults() {
    assertThat(StagedDestinationConfig.from(destination("staged", "{store: files}")))
        .isEqualTo(
            new StagedDestinationConfig(
                "files", Optional.empty(), Optional.empty(), Duration.ofHours(1), 3, true));
  }

  @Test
  void stagedAllKeys() {
    assertThat(
            StagedDestinationConfig.from(
                destination(
                    "staged",
                    "{type: staged, store: files, pointer-store: main, prefix: nightly,"
                        + " sweep-grace: 10m, keep-versions: 7, sweep-after-publish: false}")))
        .isEqualTo(
            new StagedDestinationConfig(
                "files",
                Optional.of("main"),
                Optional.of("nightly"),
                Duration.ofMinutes(10),
                7,
                false));
  }

  @Test
  void httpDefaults() {
    HttpDestinationConfig http =
        HttpDestinationConfig.from(
            destination(
                "http", "{base-uri: 'https://api.example.com', request: {path: /payments}}"));
    assertThat(http)
        .isEqualTo(
            new HttpDestinationConfig(
                URI.create("https://api.example.com"),
                Optional.empty(),
                Optional.empty(),
                "Idempotency-Key",
                Duration.ofSeconds(3),
                3,
                HttpDestinationConfig.Backoff.DEFAULT,
                Optional.empty(),
                Optional.empty(),
                false,
                false,
                Map.of(),
                new HttpDestinationConfig.RequestTemplate(
                    "POST", "/payments", "application/octet-stream")));
  }

  @Test
  void httpAllKeys() {
    HttpDestinationConfig http =
        HttpDestinationConfig.from(
            destination(
                "http",
                """
                type: http
                base-uri: https://api.example.com/v1
                intent-store: main
                bearer-token-env: API_TOKEN
                idempotency-key-header: X-Request-Key
                attempt-time-limit: 5s
                max-attempts: 4
                backoff: {initial: 100ms, multiplier: 3, max: 2s}
                lookup: {path: '/payments?key={key}', record-pointer: /data/0, key-pointer: /key}
                key-retention: 24h
                keys-honoured: true
                resend-in-doubt-without-lookup: true
                receipt-fields: {payment-id: /id, status: /status}
                request: {method: PUT, path: '/reports/{resource}', content-type: text/csv}
                """));
    assertThat(http)
        .isEqualTo(
            new HttpDestinationConfig(
                URI.create("https://api.example.com/v1"),
                Optional.of("main"),
                Optional.of("API_TOKEN"),
                "X-Request-Key",
                Duration.ofSeconds(5),
                4,
                new HttpDestinationConfig.Backoff(
                    Duration.ofMillis(100), 3.0, Duration.ofSeconds(2)),
                Optional.of(
                    new HttpDestinationConfig.Lookup(
                        "/payments?key={key}", Optional.of("/data/0"), Optional.of("/key"))),
                Optional.of(Duration.ofHours(24)),
                true,
                true,
                Map.of("payment-id", "/id", "status", "/status"),
                new HttpDestinationConfig.RequestTemplate(
                    "PUT", "/reports/{resource}", "text/csv")));
  }
}
