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

import dev.fenceline.spi.TokenKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stores a test opens on an ensemble under its own root path: one without token keys, one per
 * {@link TokenKeys} instance, all closed by {@link #close()}; {@link #restart()} restarts the whole
 * ensemble on its data and opens the stores again.
 */
final class ZkTestStores implements AutoCloseable {

  private static final AtomicLong ROOTS = new AtomicLong();
  private static ZkEnsemble shared;

  private final ZkEnsemble ensemble;
  private final String root;
  private final List<ZkStore> opened = new ArrayList<>();
  private ZkStore plain;
  private final Map<TokenKeys, ZkStore> keyed = new IdentityHashMap<>();

  ZkTestStores(ZkEnsemble ensemble, String prefix) {
    this.ensemble = ensemble;
    this.root =
        "/" + prefix + "-" + Long.toString(System.nanoTime(), 36) + "-" + ROOTS.incrementAndGet();
  }

  /**
   * The ensemble the contract suites share, started once per test JVM; tests that kill servers or
   * restart the ensemble leave all three servers up when they end.
   */
  static synchronized ZkEnsemble shared() {
    if (shared == null) {
      shared = ZkEnsemble.start();
      ZkEnsemble started = shared;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      started.close();
                    } catch (Exception e) {
                      // The JVM is ending.
                    }
                  }));
    }
    return shared;
  }

  ZkEnsemble ensemble() {
    return ensemble;
  }

  String root() {
    return root;
  }

  /** A builder on the ensemble and this test's root path. */
  ZkStore.Builder builder() {
    return ZkStore.builder(ensemble.connectString())
        .rootPath(root)
        .sessionTimeout(Duration.ofSeconds(6))
        .connectionTimeout(Duration.ofSeconds(5));
  }

  /** Opens a store that {@link #close()} closes. */
  synchronized ZkStore open(ZkStore.Builder builder) {
    ZkStore store = builder.build();
    opened.add(store);
    return store;
  }

  synchronized ZkStore store() {
    if (plain == null) {
      plain = open(builder());
    }
    return plain;
  }

  synchronized ZkStore store(Optional<TokenKeys> keys) {
    if (keys.isEmpty()) {
      return store();
    }
    return keyed.computeIfAbsent(keys.get(), k -> open(builder().tokenKeys(k)));
  }

  /** Closes every store, restarts every server of the ensemble on its data, opens anew. */
  synchronized void restart() {
    restart(() -> {});
  }

  /** {@link #restart()}, running {@code whileDown} while every server is down. */
  synchronized void restart(Runnable whileDown) {
    closeStores();
    ensemble.restartAll(whileDown);
  }

  private void closeStores() {
    opened.forEach(ZkStore::close);
    opened.clear();
    keyed.clear();
    plain = null;
  }

  @Override
  public synchronized void close() {
    closeStores();
  }
}
