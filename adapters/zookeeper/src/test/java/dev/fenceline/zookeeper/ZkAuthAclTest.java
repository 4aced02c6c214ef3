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
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Digest authentication and the ACL of every node a store creates, on the shared ensemble. */
class ZkAuthAclTest {

  /** Distinctive, so that finding it anywhere in a message is a leak and not a coincidence. */
  private static final String PASSWORD = "Alice-Pw-5521-staple";

  private static final String OTHER_PASSWORD = "Bob-Pw-9034-correct";
  private static final ResourceId RESOURCE = ResourceId.of("reports/nightly");

  private ZkTestStores stores;
  private final List<CuratorFramework> clients = new ArrayList<>();

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "auth");
  }

  @AfterEach
  void close() {
    clients.forEach(CuratorFramework::close);
    stores.close();
  }

  /** A plain Curator client without authentication (what any process on the network could run). */
  private CuratorFramework anonymous() throws InterruptedException {
    CuratorFramework client =
        CuratorFrameworkFactory.newClient(
            stores.ensemble().connectString(), 6_000, 5_000, new RetryOneTime(100));
    clients.add(client);
    client.start();
    assertThat(client.blockUntilConnected(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return client;
  }

  private static Id digestId(String user, String password) throws Exception {
    return new Id("digest", DigestAuthenticationProvider.generateDigest(user + ":" + password));
  }

  /** Acquires a lease and publishes one pointer: every kind of node the store creates exists. */
  private static Lease acquireAndPublish(ZkStore store) {
    Lease lease =
        store.leaseIssuer().tryAcquire(RESOURCE, "worker-a", Duration.ofSeconds(30)).orElseThrow();
    assertThat(
            store
                .pointerStore("reports")
                .write(lease.token(), OperationId.of("publish-1"), Pointer.to("v1")))
        .isInstanceOf(Applied.class);
    return lease;
  }

  private static void assertRefusedWithoutSecrets(Throwable refused) {
    assertThat(refused)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("ZooKeeper refused access (NOAUTH)")
        .hasMessageContaining("authenticate as the user the nodes were created with");
    for (Throwable t = refused; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage()) + t)
          .doesNotContain(PASSWORD)
          .doesNotContain(OTHER_PASSWORD);
    }
  }

  @Test
  void creatorAclRefusesAStoreWithoutAuthOrAsAnotherUserAndNothingChanges() {
    ZkStore alice = stores.open(stores.builder().digest("alice", PASSWORD));
    acquireAndPublish(alice);

    assertRefusedWithoutSecrets(catchThrowable(() -> stores.open(stores.builder())));
    assertRefusedWithoutSecrets(
        catchThrowable(() -> stores.open(stores.builder().digest("bob", OTHER_PASSWORD))));
    assertRefusedWithoutSecrets(
        catchThrowable(
            () ->
                stores.open(
                    stores
                        .builder()
                        .digest("bob", OTHER_PASSWORD)
                        .acl(ZkStore.Acl.CREATOR_WRITE_ANYONE_READ))));

    var status = alice.leaseIssuer().status(RESOURCE);
    assertThat(status.epoch()).isEqualTo(Epoch.of(1));
    assertThat(status.holder()).contains("worker-a");
    assertThat(status.held()).isTrue();
    var current = alice.pointerStore("reports").current(RESOURCE).orElseThrow();
    assertThat(current.pointer().target()).isEqualTo("v1");
    assertThat(current.version()).isEqualTo(1);
  }

  @Test
  void creatorWriteAnyoneReadLetsAnonymousClientsReadButNotWrite() throws Exception {
    ZkStore alice =
        stores.open(
            stores.builder().digest("alice", PASSWORD).acl(ZkStore.Acl.CREATOR_WRITE_ANYONE_READ));
    acquireAndPublish(alice);
    ZkPaths paths = alice.paths();
    CuratorFramework anonymous = anonymous();

    assertThat("zk-" + new String(anonymous.getData().forPath(paths.store())))
        .isEqualTo(alice.id());
    assertThat(new String(anonymous.getData().forPath(paths.lease(RESOURCE)))).contains("worker-a");
    assertThat(new String(anonymous.getData().forPath(paths.control(RESOURCE)))).contains("v1");

    assertThatThrownBy(() -> anonymous.setData().forPath(paths.lease(RESOURCE), new byte[0]))
        .isInstanceOf(KeeperException.NoAuthException.class);
    assertThatThrownBy(() -> anonymous.setData().forPath(paths.clock(), new byte[0]))
        .isInstanceOf(KeeperException.NoAuthException.class);
    assertThatThrownBy(() -> anonymous.delete().forPath(paths.holder(RESOURCE)))
        .isInstanceOf(KeeperException.NoAuthException.class);
    assertThatThrownBy(
            () -> anonymous.create().forPath(paths.lease(ResourceId.of("other")), new byte[0]))
        .isInstanceOf(KeeperException.NoAuthException.class);
    assertRefusedWithoutSecrets(catchThrowable(() -> stores.open(stores.builder())));

    assertThat(alice.leaseIssuer().status(RESOURCE).epoch()).isEqualTo(Epoch.of(1));
    assertThat(alice.pointerStore("reports").current(RESOURCE).orElseThrow().pointer().target())
        .isEqualTo("v1");
  }

  @ParameterizedTest
  @EnumSource(ZkStore.Acl.class)
  void everyNodeTheStoreCreatesCarriesTheConfiguredAclParentsOfTheRootIncluded(ZkStore.Acl acl)
      throws Exception {
    String top = stores.root();
    String root = top + "/apps/fenceline";
    ZkStore.Builder builder = stores.builder().rootPath(root).acl(acl);
    if (acl != ZkStore.Acl.OPEN) {
      builder.digest("alice", PASSWORD);
    }
    ZkStore store = stores.open(builder);
    acquireAndPublish(store);
    store
        .pointerStore("reports")
        .resetRegisteredEpoch(RESOURCE, Epoch.of(1), "test: a reset marker node");

    ACL all = new ACL(ZooDefs.Perms.ALL, digestId("alice", PASSWORD));
    Set<ACL> expected =
        switch (acl) {
          case OPEN -> Set.copyOf(ZooDefs.Ids.OPEN_ACL_UNSAFE);
          case CREATOR -> Set.of(all);
          case CREATOR_WRITE_ANYONE_READ ->
              Set.of(all, new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
        };
    List<String> nodes = new ArrayList<>();
    walk(store.client(), top + "/apps", nodes);
    ZkPaths paths = store.paths();
    assertThat(nodes)
        .contains(
            top + "/apps",
            paths.root(),
            paths.store(),
            paths.clock(),
            paths.leases(),
            paths.pointers(),
            paths.lease(RESOURCE),
            paths.holder(RESOURCE),
            paths.control(RESOURCE),
            paths.version("reports", RESOURCE, 1),
            paths.operation("reports", RESOURCE, OperationId.of("publish-1")))
        .anyMatch(node -> node.contains("/reset:"));
    for (String node : nodes) {
      assertThat(Set.copyOf(store.client().getACL().forPath(node))).as(node).isEqualTo(expected);
    }
  }

  @Test
  void onAnApplicationsClientTheNodesGetTheStoresAclNotTheClientsDefault() throws Exception {
    // The client's ACL provider is Curator's default (world:anyone); only the store's ACL counts.
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(stores.ensemble().connectString())
            .retryPolicy(new RetryOneTime(100))
            .authorization("digest", ("alice:" + PASSWORD).getBytes(StandardCharsets.UTF_8))
            .build();
    clients.add(client);
    client.start();
    String top = stores.root();
    ZkStore store =
        stores.open(
            ZkStore.builder(client).rootPath(top + "/apps/fenceline").acl(ZkStore.Acl.CREATOR));
    acquireAndPublish(store);

    List<String> nodes = new ArrayList<>();
    walk(client, top + "/apps", nodes);
    assertThat(nodes).hasSizeGreaterThanOrEqualTo(11);
    for (String node : nodes) {
      assertThat(client.getACL().forPath(node))
          .as(node)
          .containsExactly(new ACL(ZooDefs.Perms.ALL, digestId("alice", PASSWORD)));
    }
    assertThatThrownBy(() -> anonymous().getData().forPath(store.paths().lease(RESOURCE)))
        .isInstanceOf(KeeperException.NoAuthException.class);
  }

  private static void walk(CuratorFramework client, String path, List<String> into)
      throws Exception {
    into.add(path);
    for (String child : client.getChildren().forPath(path)) {
      walk(client, path + "/" + child, into);
    }
  }

  @Test
  void aRootUnderAParentOwnedByAnotherUserIsRefusedWithTheFix() {
    String parent = stores.root() + "/apps";
    stores.open(stores.builder().rootPath(parent + "/alice").digest("alice", PASSWORD));

    Throwable refused =
        catchThrowable(
            () ->
                stores.open(
                    stores.builder().rootPath(parent + "/bob").digest("bob", OTHER_PASSWORD)));

    assertRefusedWithoutSecrets(refused);
    assertThat(refused).hasMessageContaining("create the root path " + parent + "/bob");
  }

  @Test
  void aStoreWithoutAuthCreatesMissingParentsOfItsRoot() throws Exception {
    String root = stores.root() + "/a/b/c";

    ZkStore store = stores.open(stores.builder().rootPath(root));

    assertThat(acquireAndPublish(store).epoch()).isEqualTo(Epoch.of(1));
    assertThat(anonymous().checkExists().forPath(root + "/store")).isNotNull();
  }
}
