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

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A ttl with a fraction of a millisecond is stored rounded up, never down, and the lease returned
 * carries the stored ttl: the lease node says so itself (its {@code ttlMs} and its {@code mtime}).
 */
class ZkLeaseIssuerTtlTest {

  private static final ResourceId RESOURCE = ResourceId.of("report");
  private static final Duration FRACTIONAL = Duration.ofSeconds(30).plusNanos(500_000);
  private static final Duration ROUNDED_UP = Duration.ofMillis(30_001);

  private ZkTestStores stores;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "ttl");
  }

  @AfterEach
  void close() {
    stores.close();
  }

  @Test
  void aFractionalTtlIsStoredRoundedUpAndTheLeaseSaysSo() throws Exception {
    ZkStore store = stores.store();

    Lease acquired = store.leaseIssuer().tryAcquire(RESOURCE, "a", FRACTIONAL).orElseThrow();
    assertThat(acquired.ttl()).isEqualTo(ROUNDED_UP);
    assertStored(store, acquired);

    Lease renewed = store.leaseIssuer().renew(acquired, FRACTIONAL);
    assertThat(renewed.ttl()).isEqualTo(ROUNDED_UP);
    assertStored(store, renewed);
  }

  /** The node's ttlMs is 30 001 and the lease's expiry is its mtime plus that. */
  private static void assertStored(ZkStore store, Lease lease) throws Exception {
    String path = store.paths().lease(RESOURCE);
    Stat stat = new Stat();
    byte[] data = store.client().getData().storingStatIn(stat).forPath(path);
    assertThat(ZkLeaseIssuer.LeaseNode.parse(data, path).ttlMillis()).isEqualTo(30_001);
    assertThat(lease.expiresAt().toEpochMilli() - stat.getMtime()).isEqualTo(30_001);
  }
}
