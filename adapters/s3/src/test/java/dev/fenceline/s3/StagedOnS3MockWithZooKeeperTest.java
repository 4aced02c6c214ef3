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
package dev.fenceline.s3;

import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.staging.StagedDestinationContract;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.zookeeper.ZkStore;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The staged destination suite with the payloads in an {@link S3BlobStore} (S3Mock, 5 MiB parts)
 * and the pointer, the epochs and the leases in ZooKeeper (one in-process server; the 3-server
 * scenarios are in the zookeeper module).
 */
class StagedOnS3MockWithZooKeeperTest extends StagedDestinationContract {

  private static TestingServer zookeeper;
  private final Map<TokenKeys, ZkStore> keyed = new IdentityHashMap<>();
  private ZkStore plain;
  private String root;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    zookeeper = new TestingServer(true);
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    zookeeper.close();
  }

  @BeforeEach
  void chooseRoot() {
    root = "/staged-s3-" + Long.toString(System.nanoTime(), 36);
  }

  @AfterEach
  void closeStores() {
    keyed.values().forEach(ZkStore::close);
    keyed.clear();
    if (plain != null) {
      plain.close();
      plain = null;
    }
  }

  private ZkStore.Builder builder() {
    return ZkStore.builder(zookeeper.getConnectString())
        .rootPath(root)
        .sessionTimeout(Duration.ofSeconds(10))
        .connectionTimeout(Duration.ofSeconds(5));
  }

  private ZkStore zk() {
    if (plain == null) {
      plain = builder().build();
    }
    return plain;
  }

  private S3Store s3() {
    return S3Stores.smallParts(Kind.S3MOCK);
  }

  @Override
  protected BlobStore blobStore() {
    return s3().blobStore();
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    ZkStore store =
        keys.isEmpty()
            ? zk()
            : keyed.computeIfAbsent(keys.get(), k -> builder().tokenKeys(k).build());
    return store.pointerStore(name, steps);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP; // the ZooKeeper pointer store's
  }

  @Override
  protected void overwriteBlob(BlobKey key, byte[] bytes) {
    S3Location location = s3().s3Location();
    S3TestServer.get(Kind.S3MOCK)
        .admin()
        .putObject(
            b -> b.bucket(location.bucket()).key(location.objectKey(key)),
            RequestBody.fromBytes(bytes));
  }

  @Override
  protected LeaseIssuer issuer() {
    return zk().leaseIssuer();
  }

  /** Closes the stores and restarts the ZooKeeper server on its data. */
  @Override
  protected void restartStore() {
    closeStores();
    try {
      zookeeper.restart();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot restart the ZooKeeper test server", e);
    }
  }
}
