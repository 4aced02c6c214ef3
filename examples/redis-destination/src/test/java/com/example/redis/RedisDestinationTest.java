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
package com.example.redis;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * The TCK's destination suite against a real redis-server, started by this class as a child process
 * on 127.0.0.1 with {@code appendonly yes} and {@code appendfsync always} ({@link RedisServer}).
 * {@link #restartStore()} stops the server and starts it again on the same AOF.
 */
class RedisDestinationTest extends DestinationContract<String> {

  @TempDir static Path data;
  private static RedisServer server;
  private static RedisClient client;
  private static RedisFenceStore store;

  /** Leases come from the TCK's in-memory issuer: this adapter is a destination only. */
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start(data);
    connect();
  }

  @AfterAll
  static void stopRedis() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.stop();
    }
  }

  private static void connect() {
    client = RedisClient.create("127.0.0.1", server.port());
    store = RedisFenceStore.open(client, "redis://127.0.0.1:" + server.port());
  }

  @Override
  protected Destination<String> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return store.destination(name, steps, keys);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    // No lock is held between calls: a paused writer blocks nobody, and the script decides again.
    return ConcurrencyControl.COMPARE_AND_SWAP;
  }

  @Override
  protected String change(ResourceId resource, String payload) {
    return payload;
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return Optional.ofNullable(client.hget(RedisFenceStore.documentKey("tck", resource), "value"));
  }

  @Override
  protected long applyCount(ResourceId resource) {
    String version = client.hget(RedisFenceStore.documentKey("tck", resource), "version");
    return version == null ? 0 : Long.parseLong(version);
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, Clock.systemUTC());
  }

  @Override
  protected void restartStore() {
    client.close();
    server = server.restart();
    connect();
  }
}
