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
package dev.fenceline.chaos.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.StoreRole;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxiedConfigTest {

  private static final Map<String, String> ENV =
      Map.of("DB_HOST", "db1.internal", "PGPASS", "s3cret-pass", "ZK_PORT", "2182");

  @TempDir Path dir;

  @Test
  void postgresHostsEachGoThroughAProxyAndOtherPlaceholdersStay() throws IOException {
    Path yaml =
        write(
            """
            # comment kept
            stores:
              main:
                type: jdbc
                url: jdbc:postgresql://${DB_HOST}:5432,db2.internal:5433/app?ssl=false  # end
                user: fenceline
                password: ${PGPASS}
            issuer: main
            """);
    try (ProxiedConfig proxied = ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get)) {
      assertThat(targets(proxied)).containsExactly("db1.internal:5432", "db2.internal:5433");
      String text = Files.readString(proxied.file());
      assertThat(text).contains("# comment kept", "# end", "password: ${PGPASS}");
      assertThat(text).doesNotContain("s3cret-pass");

      Map<String, String> main = loadStore(proxied.file(), "main");
      assertThat(main.get("url"))
          .isEqualTo(
              "jdbc:postgresql://"
                  + proxied.proxies().get(0).address()
                  + ","
                  + proxied.proxies().get(1).address()
                  + "/app?ssl=false");
      assertThat(main.get("password")).isEqualTo("s3cret-pass");
      assertThat(proxied.description()).contains("store main (jdbc): url db1.internal:5432 via");
    }
  }

  @Test
  void postgresWithoutHostsMeansLocalhost() {
    Path yaml =
        write(
            """
            stores:
              main: {type: jdbc, url: "jdbc:postgresql:app"}
            issuer: main
            """);
    try (ProxiedConfig proxied = ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get)) {
      assertThat(targets(proxied)).containsExactly("localhost:5432");
      assertThat(loadStore(proxied.file(), "main").get("url"))
          .isEqualTo("jdbc:postgresql://" + proxied.proxies().get(0).address() + "/app");
    }
  }

  @Test
  void zookeeperServersEachGoThroughAProxyKeepingTheChroot() {
    Path yaml =
        write(
            """
            stores:
              zk:
                type: zookeeper
                connect-string: 'zk1:2181,zk2:${ZK_PORT},zk3/chroot'
            issuer: zk
            """);
    try (ProxiedConfig proxied = ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get)) {
      assertThat(targets(proxied)).containsExactly("zk1:2181", "zk2:2182", "zk3:2181");
      assertThat(loadStore(proxied.file(), "zk").get("connect-string"))
          .isEqualTo(
              proxied.proxies().stream().map(FaultProxy::address).collect(Collectors.joining(","))
                  + "/chroot");
    }
  }

  @Test
  void s3EndpointGoesThroughAProxyAndSqliteAndDirectoriesAreDescribed() {
    Path yaml =
        write(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:%s
              bucket:
                type: s3
                bucket: reports
                endpoint: http://minio.internal:9000/base
                path-style: true
              aws:
                type: s3
                bucket: other
              files:
                type: vfs
                uri: ./reports
            issuer: main
            destinations:
              reports:
                store: bucket
                pointer-store: main
            """
                .formatted(dir.resolve("fenceline.db")));
    try (ProxiedConfig proxied = ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get)) {
      assertThat(targets(proxied)).containsExactly("minio.internal:9000");
      assertThat(loadStore(proxied.file(), "bucket").get("endpoint"))
          .isEqualTo("http://" + proxied.proxies().get(0).address() + "/base");
      assertThat(proxied.sqliteFiles()).containsEntry("main", dir.resolve("fenceline.db"));
      assertThat(proxied.description())
          .contains("store main (jdbc): SQLite file " + dir.resolve("fenceline.db"))
          .contains("store aws (s3): no endpoint (AWS itself), not proxied")
          .contains("store files (vfs): a local directory, no network endpoint: not proxied");
    }
  }

  @Test
  void httpDestinationBaseUriGoesThroughAProxyAndHttpsStays() {
    Path yaml =
        write(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:%s
            issuer: main
            allow-fenced-at-intent: true
            destinations:
              api:
                type: http
                base-uri: http://api.internal:8080/v1
                max-attempts: 1
                request:
                  path: /payments/{resource}
              secure:
                type: http
                base-uri: https://secure.example.com/v1
                max-attempts: 1
                request:
                  path: /x/{resource}
            """
                .formatted(dir.resolve("fenceline.db")));
    try (ProxiedConfig proxied = ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get);
        FencelineConfig config = FencelineConfig.load(proxied.file(), ENV::get)) {
      assertThat(targets(proxied)).containsExactly("api.internal:8080");
      assertThat(config.destination("api").destination().toString())
          .contains(" at http://" + proxied.proxies().get(0).address() + "/v1");
      assertThat(config.destination("secure").destination().toString())
          .contains(" at https://secure.example.com/v1");
      assertThat(proxied.description())
          .contains("destination secure (http): base-uri is https, not proxied");
    }
  }

  @Test
  void sharedEndpointsShareAProxy() {
    Path yaml =
        write(
            """
            stores:
              main: {type: jdbc, url: "jdbc:postgresql://db:5432/a"}
              other: {type: jdbc, url: "jdbc:postgresql://DB:5432/b"}
            issuer: main
            """);
    try (ProxiedConfig proxied = ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get)) {
      assertThat(proxied.proxies()).hasSize(1);
    }
  }

  @Test
  void unsetVariableInAnEndpointIsNamed() {
    Path yaml =
        write(
            """
            stores:
              main: {type: jdbc, url: "jdbc:postgresql://${NOPE}:5432/a"}
            issuer: main
            """);
    assertThatThrownBy(() -> ProxiedConfig.write(yaml, dir.resolve("copy.yaml"), ENV::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stores.main.url")
        .hasMessageContaining("NOPE is not set");
  }

  @Test
  void configStoreFaultsCombineProxiesAndSqliteLocks() throws Exception {
    Path yaml =
        write(
            """
            stores:
              main:
                type: jdbc
                url: jdbc:sqlite:%s
              pg:
                type: jdbc
                url: jdbc:postgresql://db:5432/app
            issuer: main
            """
                .formatted(dir.resolve("fenceline.db")));
    try (ConfigStoreFaults faults = ConfigStoreFaults.of(yaml, dir.resolve("out"), ENV::get)) {
      assertThat(faults.config())
          .isEqualTo(dir.resolve("out").resolve(ConfigStoreFaults.CONFIG_FILE));
      assertThat(faults.kinds())
          .containsExactly("proxy-cut", "proxy-delay", "proxy-drop-answers", "store-lock");
      FaultProxy proxy = faults.proxied().proxies().get(0);
      assertThat(faults.inject("proxy-cut", new Random(7))).startsWith("cut " + proxy.name());
      faults.heal();
      assertThatThrownBy(() -> faults.inject("leader-kill", new Random(7)))
          .hasMessageContaining("leader-kill")
          .hasMessageContaining("store-lock");
    }
  }

  @Test
  void configStoreFaultsRefuseAConfigWithNothingToFault() {
    Path yaml =
        write(
            """
            stores:
              main: {type: jdbc, url: "jdbc:sqlite::memory:"}
              files: {type: vfs, uri: ./reports}
            issuer: main
            """);
    assertThatThrownBy(() -> ConfigStoreFaults.of(yaml, dir.resolve("out"), ENV::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("store main (jdbc): an in-memory")
        .hasMessageContaining("store files (vfs): a local directory")
        .hasMessageContaining("--faults pause,kill");
  }

  private static List<String> targets(ProxiedConfig proxied) {
    return proxied.proxies().stream().map(FaultProxy::target).toList();
  }

  private Path write(String yaml) {
    try {
      Path file = Files.createTempFile(dir, "fenceline", ".yaml");
      Files.writeString(file, yaml);
      return file;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Loads {@code file} with stand-in adapters and returns the settings store {@code name} got. */
  private Map<String, String> loadStore(Path file, String name) {
    Function<String, String> env = ENV::get;
    CURRENT.set(file.toString());
    try (FencelineConfig config = FencelineConfig.load(file, env, fakes())) {
      config.storeAdapter(name);
      return CREATED.get(file + "#" + name);
    } finally {
      CURRENT.remove();
    }
  }

  static final Map<String, Map<String, String>> CREATED = new ConcurrentHashMap<>();

  private AdapterRegistry fakes() {
    try {
      Path services = dir.resolve("services.txt");
      Files.writeString(
          services,
          String.join(
              "\n",
              FakeJdbc.class.getName(),
              FakeZookeeper.class.getName(),
              FakeS3.class.getName(),
              FakeVfs.class.getName()));
      URL url = services.toUri().toURL();
      String resource = "META-INF/services/" + AdapterFactory.class.getName();
      ClassLoader loader =
          new ClassLoader(ProxiedConfigTest.class.getClassLoader()) {
            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
              return name.equals(resource)
                  ? Collections.enumeration(List.of(url))
                  : super.getResources(name);
            }
          };
      return AdapterRegistry.load(loader);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Records the settings it is created with; offers nothing real. */
  abstract static class Recording implements AdapterFactory {
    private final String name;
    private final Set<StoreRole> roles;
    private final List<ConfigKey> keys;

    Recording(String name, Set<StoreRole> roles, List<ConfigKey> keys) {
      this.name = name;
      this.roles = roles;
      this.keys = keys;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public List<ConfigKey> configKeys() {
      return keys;
    }

    @Override
    public Set<StoreRole> roles() {
      return roles;
    }

    @Override
    public Adapter create(String instanceName, Map<String, String> config) {
      CREATED.put(CURRENT.get() + "#" + instanceName, Map.copyOf(config));
      return () -> {};
    }
  }

  static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

  /** Stand-in for the jdbc adapter. */
  public static final class FakeJdbc extends Recording {
    public FakeJdbc() {
      super(
          "jdbc",
          Set.of(StoreRole.LEASE_ISSUER, StoreRole.POINTER_STORE, StoreRole.INTENT_STORE),
          List.of(
              ConfigKey.string("url").description("url").required().build(),
              ConfigKey.string("user").description("user").build(),
              ConfigKey.string("password").description("password").secret().build()));
    }
  }

  /** Stand-in for the zookeeper adapter. */
  public static final class FakeZookeeper extends Recording {
    public FakeZookeeper() {
      super(
          "zookeeper",
          Set.of(StoreRole.LEASE_ISSUER, StoreRole.POINTER_STORE),
          List.of(
              ConfigKey.string("connect-string").description("connect-string").required().build()));
    }
  }

  /** Stand-in for the s3 adapter. */
  public static final class FakeS3 extends Recording {
    public FakeS3() {
      super(
          "s3",
          Set.of(StoreRole.POINTER_STORE, StoreRole.BLOB_STORE),
          List.of(
              ConfigKey.string("bucket").description("bucket").required().build(),
              ConfigKey.uri("endpoint").description("endpoint").build(),
              ConfigKey.bool("path-style").description("path-style").build()));
    }
  }

  /** Stand-in for the vfs adapter. */
  public static final class FakeVfs extends Recording {
    public FakeVfs() {
      super(
          "vfs",
          Set.of(StoreRole.BLOB_STORE),
          List.of(ConfigKey.string("uri").description("uri").required().build()));
    }
  }
}
