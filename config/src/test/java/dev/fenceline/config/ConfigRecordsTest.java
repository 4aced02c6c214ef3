package dev.fenceline.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.Adapter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One defaults test and one all-keys test per config record. */
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
    JdbcStoreConfig sqlite = JdbcStoreConfig.from(section("{type: jdbc, url: 'jdbc:sqlite:a.db'}"));
    assertThat(sqlite)
        .isEqualTo(
            new JdbcStoreConfig(
                "jdbc:sqlite:a.db",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Duration.ofSeconds(8),
                Duration.ofSeconds(10),
                Duration.ofSeconds(5),
                Duration.ofSeconds(8),
                Duration.ofSeconds(12),
                Duration.ofMinutes(10),
                false,
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(JdbcStoreConfig.from(section("{url: 'jdbc:postgresql://db/app'}")).poolSize())
        .contains(JdbcStoreConfig.DEFAULT_POOL_SIZE);
  }

  @Test
  void jdbcAllKeys() {
    JdbcStoreConfig all =
        JdbcStoreConfig.from(
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
    assertThat(all)
        .isEqualTo(
            new JdbcStoreConfig(
                "jdbc:postgresql://db/app",
                Optional.of("app"),
                Optional.of(new Secret("pw")),
                Optional.of(4),
                Duration.ofSeconds(5),
                Duration.ofMinutes(1),
                Duration.ofSeconds(2),
                Duration.ofSeconds(3),
                Duration.ofMillis(1500),
                Duration.ofMinutes(30),
                true,
                Optional.of(Duration.ofDays(7)),
                Optional.of(16),
                Optional.of(Duration.ofHours(1))));
    assertThat(all.adapterKeys())
        .containsEntry("pool-size", "4")
        .containsEntry("statement-timeout", "60s")
        .containsEntry("socket-timeout", "1500ms")
        .containsEntry("migration-timeout", "1800s")
        .containsEntry("password", "pw")
        .containsEntry("receipt-retention", "604800s")
        .containsEntry("pointer-versions", "16")
        .containsEntry("prune-every", "3600s")
        .hasSize(14);
  }

  @Test
  void vfsDefaults() {
    VfsStoreConfig vfs = VfsStoreConfig.from(section("{uri: 'file:///srv/reports'}"));
    assertThat(vfs)
        .isEqualTo(
            new VfsStoreConfig(
                "file:///srv/reports",
                Optional.empty(),
                Optional.empty(),
                true,
                Duration.ofSeconds(30),
                false));
  }

  @Test
  void vfsAllKeysAreTakenByTheVfsAdapter() {
    String uri = directory.resolve("reports").toUri().toString();
    VfsStoreConfig vfs =
        VfsStoreConfig.from(
            section(
                """
                {type: vfs, uri: '%s', allow-case-folding: true}
                """
                    .formatted(uri)));
    assertThat(vfs)
        .isEqualTo(
            new VfsStoreConfig(
                uri, Optional.empty(), Optional.empty(), true, Duration.ofSeconds(30), true));
    // Every key reaches the adapter (the SFTP ones with their defaults), which takes them all.
    assertThat(vfs.adapterKeys().keySet())
        .containsExactlyInAnyOrderElementsOf(
            VfsStoreConfig.KEYS.stream()
                .filter(key -> !key.equals("type") && !key.equals("user"))
                .filter(key -> !key.equals("password"))
                .toList());
    try (Adapter adapter = AdapterRegistry.load().create("vfs", "files", vfs.adapterKeys())) {
      assertThat(adapter.blobStore()).isPresent();
    }
    VfsStoreConfig sftp =
        VfsStoreConfig.from(
            section(
                "{uri: 'sftp://h/srv', user: u, password: p, strict-host-key-checking: false,"
                    + " timeout: 5s, allow-case-folding: true}"));
    assertThat(sftp)
        .isEqualTo(
            new VfsStoreConfig(
                "sftp://h/srv",
                Optional.of("u"),
                Optional.of(new Secret("p")),
                false,
                Duration.ofSeconds(5),
                true));
    assertThat(sftp.user()).contains("u");
    assertThat(sftp.password()).contains(new Secret("p"));
    assertThat(sftp.adapterKeys()).containsEntry("user", "u").containsEntry("password", "p");
  }

  @Test
  void s3Defaults() {
    S3StoreConfig s3 = S3StoreConfig.from(section("{bucket: reports}"));
    assertThat(s3)
        .isEqualTo(
            new S3StoreConfig(
                "reports",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(s3.adapterKeys()).isEqualTo(Map.of("bucket", "reports", "path-style", "false"));
  }

  @Test
  void s3AllKeys() {
    S3StoreConfig s3 =
        S3StoreConfig.from(
            section(
                """
                {type: s3, bucket: reports, prefix: nightly, region: eu-central-1,
                 endpoint: 'http://127.0.0.1:9000', path-style: true, connect-timeout: 1s,
                 socket-timeout: 2s, attempt-timeout: 3s, call-timeout: 4s, multipart-threshold: 16MiB,
                 part-size: 8MiB, probe-cache: 2h}
                """));
    assertThat(s3)
        .isEqualTo(
            new S3StoreConfig(
                "reports",
                Optional.of("nightly"),
                Optional.of("eu-central-1"),
                Optional.of(URI.create("http://127.0.0.1:9000")),
                true,
                Optional.of(Duration.ofSeconds(1)),
                Optional.of(Duration.ofSeconds(2)),
                Optional.of(Duration.ofSeconds(3)),
                Optional.of(Duration.ofSeconds(4)),
                Optional.of("16MiB"),
                Optional.of("8MiB"),
                Optional.of(Duration.ofHours(2))));
    assertThat(s3.adapterKeys())
        .containsEntry("endpoint", "http://127.0.0.1:9000")
        .containsEntry("part-size", "8MiB")
        .containsEntry("call-timeout", "4s")
        .containsEntry("probe-cache", "7200s")
        .hasSize(12);
  }

  @Test
  void stagedDefaults() {
    assertThat(StagedDestinationConfig.from(section("{store: files}")))
        .isEqualTo(
            new StagedDestinationConfig(
                "files", Optional.empty(), Optional.empty(), Duration.ofHours(1), 3, true));
  }

  @Test
  void stagedAllKeys() {
    assertThat(
            StagedDestinationConfig.from(
                section(
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
            section("{base-uri: 'https://api.example.com', request: {path: /payments}}"));
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
            section(
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
