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
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * The S3-only stores of one test: a fresh bucket on a real server, stores whose conditional PUTs
 * are atomic ({@link AtomicConditionalWrites}, as on S3), one store per set of token keys, and
 * everything opened closed at the end.
 */
final class S3OnlyFixture implements AutoCloseable {

  final S3TestServer server;
  final String bucket;
  private final UnaryOperator<S3Store.Builder> settings;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final Map<TokenKeys, S3Store> signedStores = new IdentityHashMap<>();
  private S3Store store;

  /** A fresh bucket on {@code kind}; {@code settings} adjusts every store's builder. */
  S3OnlyFixture(Kind kind, UnaryOperator<S3Store.Builder> settings) {
    this.server = S3TestServer.get(kind);
    this.bucket = server.createBucket();
    this.settings = settings;
    this.store = open(builder());
  }

  /** The current store (replaced by {@link #restart()}). */
  S3Store store() {
    return store;
  }

  /** A builder on the bucket, with the settings, whose conditional PUTs are atomic. */
  S3Store.Builder builder() {
    return settings.apply(server.storeBuilder(bucket).httpClient(closedLater(atomicHttp())));
  }

  /** A new HTTP client whose conditional PUTs are atomic, closed with the fixture. */
  AtomicConditionalWrites atomicHttp() {
    return closedLater(new AtomicConditionalWrites(Apache5HttpClient.create()));
  }

  /** Builds {@code builder} and closes the store with the fixture. */
  S3Store open(S3Store.Builder builder) {
    return closedLater(builder.build());
  }

  /** Closes {@code closeable} with the fixture. */
  <T extends AutoCloseable> T closedLater(T closeable) {
    opened.add(closeable);
    return closeable;
  }

  /** The suite's pointer store: of the current store, or of one that refuses unsigned tokens. */
  PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    if (keys.isEmpty()) {
      return store.pointerStore(name, steps);
    }
    return signedStores
        .computeIfAbsent(keys.get(), k -> open(builder().tokenKeys(k)))
        .pointerStore(name, steps);
  }

  /** Opens new stores over the same bucket, as a restarted process would. */
  void restart() {
    store = open(builder());
    signedStores.clear();
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable closeable : opened) {
      closeable.close();
    }
  }
}
