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

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What each step costs in requests to the ensemble (each one round trip; {@code multi}, {@code
 * setData} and {@code create} are quorum commits), as the README and the Javadoc state them.
 */
class ZkRoundTripTest {

  private ZkTestStores stores;
  private CountingZooKeeper counting;
  private ZkStore store;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "round-trips");
    counting = new CountingZooKeeper(stores.ensemble().connectString());
    store = stores.open(ZkStore.builder(counting.client()).rootPath(stores.root()));
    counting.take();
  }

  @AfterEach
  void close() {
    stores.close();
    counting.close();
  }

  @Test
  void pointerSteps() {
    PointerStore pointers = store.pointerStore("site");
    ResourceId resource = ResourceId.of("costs/pointer");
    FencingToken token = new FencingToken(store.id(), resource, Epoch.of(1), "w");

    assertThat(pointers.write(token, OperationId.of("v1"), Pointer.to("1")))
        .isInstanceOf(Applied.class);
    assertThat(counting.take())
        .as("a swap on a fresh resource: barrier, read, transaction")
        .containsExactly("multi", "getData", "multi");
    pointers.write(token, OperationId.of("v2"), Pointer.to("2"));
    assertThat(counting.take())
        .as("the owner that wrote last: the transaction alone, at the version it wrote")
        .containsExactly("multi");
    pointers.write(token, OperationId.of("v3"), Pointer.to("3"));
    assertThat(counting.take())
        .as("and every later version: the operation node it creates refuses a retry")
        .containsExactly("multi");
    pointers.write(token, OperationId.of("v3"), Pointer.to("3"));
    assertThat(counting.take())
        .as("a retry of the current operation: barrier and read (a replay is read, never kept)")
        .containsExactly("multi", "getData");
    PointerStore otherProcess = store.pointerStore("site");
    otherProcess.write(token, OperationId.of("v4"), Pointer.to("4"));
    counting.take();
    pointers.write(token, OperationId.of("v5"), Pointer.to("5"));
    assertThat(counting.take())
        .as("after another process's swap: the refused transaction, barrier, read, node, swap")
        .containsExactly("multi", "multi", "getData", "getData", "multi");
    pointers.write(token, OperationId.of("v1"), Pointer.to("1"));
    assertThat(counting.take())
        .as("a retry of an older operation: the refused transaction, then barrier, read, node")
        .containsExactly("multi", "multi", "getData", "getData");
    pointers.lookup(resource, OperationId.of("v1"));
    assertThat(counting.take())
        .as("lookup of an older operation")
        .containsExactly("multi", "getData", "getData");
    pointers.register(token);
    assertThat(counting.take())
        .as("an epoch already registered")
        .containsExactly("multi", "getData");
    pointers.history(resource, 3);
    assertThat(counting.take())
        .as("history of 3: barrier, control node, two version nodes")
        .containsExactly("multi", "getData", "getData", "getData");
  }

  @Test
  void leaseSteps() {
    ZkLeaseIssuer issuer = store.leaseIssuer();
    ResourceId resource = ResourceId.of("costs/lease");
    Lease first = issuer.tryAcquire(resource, "w", Duration.ofMinutes(1)).orElseThrow();
    assertThat(counting.take())
        .as("the first acquire of a resource also creates its lease node")
        .containsExactly("setData", "getData", "create", "getData", "exists", "multi");
    issuer.release(first);
    counting.take();

    Lease lease = issuer.tryAcquire(resource, "w", Duration.ofMinutes(1)).orElseThrow();
    assertThat(counting.take())
        .as("acquire: clock write, lease read, holder check, transaction")
        .containsExactly("setData", "getData", "exists", "multi");
    issuer.renew(lease);
    assertThat(counting.take())
        .as("renew")
        .containsExactly("setData", "getData", "exists", "multi");
    issuer.status(resource);
    assertThat(counting.take()).as("status").containsExactly("setData", "getData", "exists");
    assertThat(issuer.release(lease)).isTrue();
    assertThat(counting.take())
        .as("release: barrier, lease read, holder check, transaction")
        .containsExactly("multi", "getData", "exists", "multi");
  }
}
