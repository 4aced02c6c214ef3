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
package dev.fenceline.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ZkAdapterFactoryTest {

  /** Distinctive, so that finding it anywhere in a message is a leak and not a coincidence. */
  private static final String PASSWORD = "Zk-Pw-7731-horse";

  private static final String WRONG_PASSWORD = "Zk-Wrong-4410-battery";

  private ZkTestStores stores;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "factory");
  }

  @AfterEach
  void close() {
    stores.close();
  }

  private static AdapterFactory zookeeper() {
    return ServiceLoader.load(AdapterFactory.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> factory.name().equals("zookeeper"))
        .findFirst()
        .orElseThrow();
  }

  /**
   * The keys of an adapter on the shared ensemble under this test's root path, plus {@code more}.
   */
  private Map<String, String> keys(String... more) {
    Map<String, String> keys = new HashMap<>();
    keys.put("connect-string", stores.ensemble().connectString());
    keys.put("root-path", stores.root());
    keys.put("session-timeout", "6s");
    keys.put("connection-timeout", "5s");
    for (int i = 0; i < more.length; i += 2) {
      keys.put(more[i], more[i + 1]);
    }
    return keys;
  }

  @Test
  void isFoundByServiceLoaderAndOffersAnIssuerAndPointerStoresThatWorkTogether() {
    ResourceId resource = ResourceId.of("reports/nightly");
    try (Adapter adapter =
        zookeeper().create("coordination", keys("auth-digest", "fenceline:" + PASSWORD))) {
      LeaseIssuer issuer = adapter.leaseIssuer().orElseThrow();
      PointerStore reports = adapter.pointerStore("reports").orElseThrow();
      assertThat(adapter.blobStore()).isEmpty();
      assertThat(reports.storeId()).startsWith("zk-").isEqualTo(issuer.id());
      assertThat(adapter.pointerStore("audit").orElseThrow().storeId()).isEqualTo(issuer.id());

      Lease lease = issuer.tryAcquire(resource, "worker-a", Duration.ofSeconds(30)).orElseThrow();
      assertThat(lease.token().issuer()).isEqualTo(reports.storeId());
      assertThat(reports.write(lease.token(), OperationId.of("publish-1"), Pointer.to("v1")))
          .isInstanceOf(Applied.class);
      assertThat(reports.lookup(resource, OperationId.of("publish-1"))).isPresent();
      assertThat(reports.current(resource).orElseThrow().pointer().target()).isEqualTo("v1");
      assertThat(issuer.toString() + reports + adapter).doesNotContain(PASSWORD);
    }
  }

  @Test
  void closingTheAdapterClosesItsClientAndEndsItsSession() {
    ResourceId resource = ResourceId.of("reports/nightly");
    ZkStore observer = stores.store();
    String holder = observer.paths().holder(resource);
    Adapter adapter = zookeeper().create("coordination", keys());
    LeaseIssuer issuer = adapter.leaseIssuer().orElseThrow();
    issuer.tryAcquire(resource, "worker-a", Duration.ofSeconds(30)).orElseThrow();
    observer.barrier("test");
    assertThat(observer.exists(holder, "test")).as("the holder's ephemeral node").isPresent();

    adapter.close();

    // Closing the ZooKeeper client ends its session, which deletes its ephemeral nodes at once.
    observer.barrier("test");
    assertThat(observer.exists(holder, "test")).isEmpty();
    assertThatThrownBy(() -> issuer.status(resource)).isInstanceOf(RuntimeException.class);
  }

  @Test
  void refusesUnknownMissingAndMalformedKeysNamingAdapterInstanceKeyAndFix() {
    assertThatThrownBy(() -> zookeeper().create("coordination", keys("auth-password", PASSWORD)))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
        .hasMessageContaining("unknown key \"auth-password\"")
        .hasMessageContaining("auth-digest")
        .hasMessageNotContaining(PASSWORD);
    assertThatThrownBy(() -> zookeeper().create("coordination", Map.of("root-path", "/x")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
        .hasMessageContaining("key \"connect-string\" is missing")
        .hasMessageContaining("zk1:2181");
    assertThatThrownBy(() -> zookeeper().create("coordination", keys("session-timeout", "30")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
        .hasMessageContaining("key \"session-timeout\" has value \"30\"")
        .hasMessageContaining("30s");
    assertThatThrownBy(() -> zookeeper().create("coordination", keys("connection-timeout", "0s")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("key \"connection-timeout\" has value \"PT0S\"")
        .hasMessageContaining("between 1 ms");
    assertThatThrownBy(() -> zookeeper().create("coordination", keys("acl", "world")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
        .hasMessageContaining("key \"acl\" has value \"world\"")
        .hasMessageContaining("open, creator or creator-write-anyone-read");
    assertThatThrownBy(() -> zookeeper().create("coordination", keys("acl", "creator")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
        .hasMessageContaining("key \"acl\" has value \"creator\"")
        .hasMessageContaining("auth-digest")
        .hasMessageContaining("acl: open");
    assertThatThrownBy(() -> zookeeper().create("coordination", keys("sasl-login-context", " ")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("key \"sasl-login-context\"")
        .hasMessageContaining("e.g. Client");
  }

  @Test
  void refusesARootPathThatIsNotAnAbsolutePathOfPlainSegments() {
    for (String root : new String[] {"fenceline", "/zookeeper", "/zookeeper/x", "/a//b", "/a/"}) {
      assertThatThrownBy(() -> zookeeper().create("coordination", keys("root-path", root)))
          .as(root)
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
          .hasMessageContaining("key \"root-path\" has value \"" + root + "\"")
          .hasMessageContaining("such as /fenceline");
    }
  }

  @Test
  void refusesAnAuthDigestWithoutUserOrPasswordAndNeverShowsIt() {
    for (String digest : new String[] {PASSWORD, ":" + PASSWORD, PASSWORD + ":"}) {
      assertThatThrownBy(() -> zookeeper().create("coordination", keys("auth-digest", digest)))
          .as(digest)
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("Cannot configure zookeeper adapter \"coordination\"")
          .hasMessageContaining("key \"auth-digest\" is not user:password")
          .hasMessageContaining("fenceline:${ZK_PASSWORD}")
          .hasMessageNotContaining(PASSWORD);
    }
  }

  @Test
  void aWrongPasswordIsRefusedAccessWithoutShowingEitherPassword() {
    ResourceId resource = ResourceId.of("reports/nightly");
    try (Adapter owner =
        zookeeper().create("coordination", keys("auth-digest", "fenceline:" + PASSWORD))) {
      owner.leaseIssuer().orElseThrow().tryAcquire(resource, "worker-a", Duration.ofSeconds(30));

      // The digest scheme accepts any password at login; the ACL then refuses the other identity.
      Throwable refused =
          org.assertj.core.api.Assertions.catchThrowable(
              () ->
                  zookeeper()
                      .create("coordination", keys("auth-digest", "fenceline:" + WRONG_PASSWORD)));

      assertThat(refused)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("refused access")
          .hasMessageContaining("authenticate as the user the nodes were created with");
      for (Throwable t = refused; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage()) + t)
            .doesNotContain(PASSWORD)
            .doesNotContain(WRONG_PASSWORD);
      }
      assertThat(owner.leaseIssuer().orElseThrow().status(resource).epoch().value()).isEqualTo(1);
    }
  }
}
