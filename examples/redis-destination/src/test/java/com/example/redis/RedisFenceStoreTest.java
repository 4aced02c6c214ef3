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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsafeStoreException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/** What {@link RedisFenceStore} refuses to open on, and how it reports answers it cannot use. */
class RedisFenceStoreTest {

  @TempDir static Path data;
  private static RedisServer server;
  private static RedisClient client;

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start(data);
    client = RedisClient.create("127.0.0.1", server.port());
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

  private static String where() {
    return "redis://127.0.0.1:" + server.port();
  }

  private static RedisDestination destination() {
    return RedisFenceStore.open(client, where())
        .destination("reports", StepListener.NONE, Optional.empty());
  }

  @Test
  void opensOnAPrimaryWithAppendfsyncAlways() {
    assertThat(RedisFenceStore.open(client, where()))
        .hasToString("RedisFenceStore[" + where() + "]");
  }

  @Test
  void refusesAServerThatCanLoseAcknowledgedEpochsOnACrash() {
    client.configSet("appendfsync", "everysec");
    try {
      assertThatThrownBy(() -> RedisFenceStore.open(client, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("Cannot use " + where() + " as a fence store")
          .hasMessageContaining("appendfsync is everysec")
          .hasMessageContaining("CONFIG SET appendfsync always");
    } finally {
      client.configSet("appendfsync", "always");
    }
  }

  @Test
  void refusesAServerThatMayEvictAFence() {
    client.configSet("maxmemory-policy", "allkeys-lru");
    try {
      assertThatThrownBy(() -> RedisFenceStore.open(client, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("maxmemory-policy is allkeys-lru")
          .hasMessageContaining("noeviction");
    } finally {
      client.configSet("maxmemory-policy", "noeviction");
    }
  }

  @Test
  void refusesAReplica(@TempDir Path replicaData) {
    RedisServer replica = RedisServer.start(replicaData);
    try (Jedis admin = new Jedis("127.0.0.1", replica.port());
        RedisClient toReplica = RedisClient.create("127.0.0.1", replica.port())) {
      // A replica of a primary that is down: the role is what counts, and nothing syncs.
      admin.replicaof("127.0.0.1", RedisServer.freePort());

      assertThatThrownBy(() -> RedisFenceStore.open(toReplica, "the replica"))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("Cannot use the replica as a fence store: it is a slave")
          .hasMessageContaining("Connect to the primary");
    } finally {
      replica.stop();
    }
  }

  @Test
  void aScriptTheServerForgotIsSentAgain() {
    ResourceId resource = ResourceId.of("flushed");
    RedisDestination reports = destination();
    FencingToken token = new FencingToken("issuer-1", resource, Epoch.of(1), "worker-a");
    reports.write(token, OperationId.of("op-1"), "one");

    client.scriptFlush();

    assertThat(reports.write(token, OperationId.of("op-2"), "two")).isInstanceOf(Applied.class);
  }

  @Test
  void aRecordThatIsNotOneIsAClearErrorNotAnAnswer() {
    ResourceId resource = ResourceId.of("tampered");
    RedisDestination reports = destination();
    FencingToken token = new FencingToken("issuer-1", resource, Epoch.of(1), "worker-a");
    reports.write(token, OperationId.of("op-1"), "one");
    String key = RedisFenceStore.operationsKey("reports", resource);
    client.hset(key, "op-1", "not a record");

    assertThatThrownBy(() -> reports.lookup(resource, OperationId.of("op-1")))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("Cannot look up operation op-1 of tampered at reports at " + where())
        .hasMessageContaining(key + " field op-1 holds 'not a record'")
        .hasMessageContaining("<epoch> <seconds> <microseconds> <version> sha256:<hex>");
    assertThatThrownBy(() -> reports.write(token, OperationId.of("op-1"), "one"))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(key + " field op-1 holds 'not a record'");
  }

  @Test
  void aFenceThatIsNotAnEpochIsAClearError() {
    ResourceId resource = ResourceId.of("bad-epoch");
    client.hset(RedisFenceStore.fenceKey(resource), "epoch", "-3");

    assertThatThrownBy(() -> destination().currentEpoch(resource))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(RedisFenceStore.fenceKey(resource) + " field epoch holds '-3'");
  }
}
