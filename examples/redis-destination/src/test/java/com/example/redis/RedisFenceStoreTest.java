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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UnsafeStoreException;
import dev.fenceline.spi.WriteOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.csc.CacheConfig;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.PooledConnectionProvider;

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
          .hasMessageContaining("in redis.conf, or CONFIG SET them and then CONFIG REWRITE");
    } finally {
      client.configSet("appendfsync", "always");
    }
  }

  @Test
  void refusesAServerThatSkipsTheFsyncWhileARewriteRuns() {
    client.configSet("no-appendfsync-on-rewrite", "yes");
    try {
      assertThatThrownBy(() -> RedisFenceStore.open(client, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("no-appendfsync-on-rewrite is yes")
          .hasMessageContaining("Set no-appendfsync-on-rewrite no");
    } finally {
      client.configSet("no-appendfsync-on-rewrite", "no");
    }
  }

  @Test
  void refusesAServerWhoseAofWasJustTurnedOnUntilItsFirstRewriteIsDone(@TempDir Path dir) {
    // Each key delays the AOF rewrite by 0.2 s: the first one takes 2 s, so it runs at open.
    RedisServer late =
        RedisServer.start(dir, "--appendonly", "no", "--rdb-key-save-delay", "200000");
    try (RedisClient toLate = RedisClient.create("127.0.0.1", late.port())) {
      for (int i = 0; i < 10; i++) {
        toLate.set("key-" + i, "value");
      }
      toLate.configSet("appendonly", "yes");

      assertThat(toLate.configGet("appendonly")).containsEntry("appendonly", "yes");
      assertThatThrownBy(() -> RedisFenceStore.open(toLate, "the late server"))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageMatching(
              "(?s).*INFO persistence reports aof_rewrite_(in_progress|scheduled):1.*")
          .hasMessageContaining("CONFIG REWRITE");

      await(
          () -> toLate.info("persistence").contains("aof_rewrite_in_progress:0"),
          "the first AOF rewrite");
      assertThat(RedisFenceStore.open(toLate, "the late server"))
          .hasToString("RedisFenceStore[the late server]");
    } finally {
      late.stop(); // Redis refuses SIGTERM while it writes its first AOF
    }
  }

  @Test
  void refusesAnAofWhoseLastWriteFailed() {
    // A failed AOF write is hard to cause on a test machine: the check is fed INFO with one change.
    RedisFenceStore store = RedisFenceStore.open(client, where());
    Map<String, String> persistence = RedisFenceStore.fields(client.info("persistence"));
    assertThat(persistence).containsEntry("aof_last_write_status", "ok");
    persistence.put("aof_last_write_status", "err");

    assertThatThrownBy(() -> store.checkAof(persistence))
        .isInstanceOf(UnsafeStoreException.class)
        .hasMessageContaining("INFO persistence reports aof_last_write_status:err (needs ok)");
  }

  @Test
  void refusesClusterMode(@TempDir Path dir) {
    RedisServer node =
        RedisServer.start(
            dir,
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            dir.resolve("nodes.conf").toString());
    try (RedisClient toNode = RedisClient.create("127.0.0.1", node.port())) {
      assertThatThrownBy(() -> RedisFenceStore.open(toNode, "the node"))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("Cannot use the node as a fence store: it runs in cluster mode");
    } finally {
      node.stop();
    }
  }

  @Test
  void aServerThatRefusesConfigGetCannotBeChecked() {
    try (Jedis admin = new Jedis("127.0.0.1", server.port())) {
      admin.aclSetUser("no-config", "on", ">secret", "~*", "allchannels", "+@all", "-config");
    }
    try (RedisClient limited =
        RedisClient.builder()
            .hostAndPort("127.0.0.1", server.port())
            .clientConfig(
                DefaultJedisClientConfig.builder().user("no-config").password("secret").build())
            .build()) {
      assertThatThrownBy(() -> RedisFenceStore.open(limited, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("Cannot check that " + where() + " keeps acknowledged epochs")
          .hasMessageContaining("NOPERM")
          .hasMessageContaining("openWithoutSafetyChecks");
    } finally {
      try (Jedis admin = new Jedis("127.0.0.1", server.port())) {
        admin.aclDelUser("no-config");
      }
    }
  }

  @Test
  void refusesAPrimaryWithAReplicaUnlessNoneIsEverPromoted(@TempDir Path dir) {
    RedisServer primary = RedisServer.start(dir.resolve("primary"));
    RedisServer replica = null;
    try (RedisClient toPrimary = RedisClient.create("127.0.0.1", primary.port())) {
      replica =
          RedisServer.start(
              dir.resolve("replica"),
              "--appendonly",
              "no", // with AOF, it would refuse SIGTERM until its first rewrite after the sync
              "--replicaof",
              "127.0.0.1",
              Integer.toString(primary.port()));
      await(
          () -> toPrimary.info("replication").contains("connected_slaves:1"),
          "the replica to connect");

      assertThatThrownBy(() -> RedisFenceStore.open(toPrimary, "the primary"))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining(
              "Cannot use the primary as a fence store: it has 1 connected replica(s) and 0"
                  + " Sentinel(s)")
          .hasMessageContaining("openWithReplicasNeverPromoted");
      assertThat(RedisFenceStore.openWithReplicasNeverPromoted(toPrimary, "the primary"))
          .hasToString("RedisFenceStore[the primary]");
    } finally {
      if (replica != null) {
        replica.stop();
      }
      primary.stop();
    }
  }

  @Test
  void refusesAPrimaryThatSentinelWatchesAndASentinelClient(@TempDir Path dir) {
    RedisServer primary = RedisServer.start(dir.resolve("primary"));
    RedisServer sentinel = null;
    try (RedisClient toPrimary = RedisClient.create("127.0.0.1", primary.port())) {
      sentinel = RedisServer.startSentinel(dir.resolve("sentinel"), primary);
      await(() -> sentinelSubscribed(primary), "the Sentinel to subscribe on the primary");

      assertThatThrownBy(() -> RedisFenceStore.open(toPrimary, "the primary"))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("0 connected replica(s) and 1 Sentinel(s) watching it");

      try (RedisSentinelClient viaSentinel =
          RedisSentinelClient.builder()
              .masterName("fenceline")
              .sentinels(Set.of(new HostAndPort("127.0.0.1", sentinel.port())))
              .build()) {
        assertThatThrownBy(() -> RedisFenceStore.openWithReplicasNeverPromoted(viaSentinel, "s"))
            .isInstanceOf(UnsafeStoreException.class)
            .hasMessageContaining("the client is a redis.clients.jedis.RedisSentinelClient")
            .hasMessageContaining("Pass RedisClient.create(host, port)");
      }
    } finally {
      if (sentinel != null) {
        sentinel.stop();
      }
      primary.stop();
    }
  }

  @Test
  void refusesAClientThatMayNotTalkToOneServer() {
    HostAndPort at = new HostAndPort("127.0.0.1", server.port());
    PooledConnectionProvider pool = new PooledConnectionProvider(at);
    ConnectionProvider wrapped =
        new ConnectionProvider() {
          @Override
          public Connection getConnection() {
            return pool.getConnection();
          }

          @Override
          public Connection getConnection(CommandArguments args) {
            return pool.getConnection(args);
          }

          @Override
          public void close() {
            pool.close();
          }
        };
    try (UnifiedJedis unified =
            new UnifiedJedis(new PooledConnectionProvider(at), 1, Duration.ofSeconds(2));
        RedisClient custom = RedisClient.builder().connectionProvider(wrapped).build()) {
      assertThatThrownBy(() -> RedisFenceStore.open(unified, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("the client is a redis.clients.jedis.UnifiedJedis");
      assertThatThrownBy(() -> RedisFenceStore.open(custom, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining(
              "the client is a RedisClient with a ConnectionProvider other than"
                  + " PooledConnectionProvider");
    }
  }

  @Test
  void refusesAClientWithAClientSideCache() {
    try (RedisClient cached =
        RedisClient.builder()
            .hostAndPort("127.0.0.1", server.port())
            .clientConfig(DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).build())
            .cacheConfig(CacheConfig.builder().build())
            .build()) {
      assertThatThrownBy(() -> RedisFenceStore.open(cached, where()))
          .isInstanceOf(UnsafeStoreException.class)
          .hasMessageContaining("the client has a client-side cache");
    }
  }

  @Test
  void aWriteThatTimedOutIsSettledByARetryWithTheSameOperationId() {
    ResourceId resource = ResourceId.of("timed-out");
    FencingToken token = new FencingToken("issuer-1", resource, Epoch.of(1), "worker-a");
    OperationId operation = OperationId.of("op-1");
    try (RedisClient impatient =
            RedisClient.builder()
                .hostAndPort("127.0.0.1", server.port())
                .clientConfig(DefaultJedisClientConfig.builder().socketTimeoutMillis(100).build())
                .build();
        Jedis admin = new Jedis("127.0.0.1", server.port())) {
      RedisDestination hasty =
          RedisFenceStore.open(impatient, where())
              .destination("reports", StepListener.NONE, Optional.empty());
      // Reads go on; the script waits for the pause to end, long after the client gave up.
      admin.clientPause(1000, ClientPauseMode.WRITE);

      assertThatThrownBy(() -> hasty.write(token, operation, "one"))
          .isInstanceOfSatisfying(
              StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
          .hasMessageContaining(
              "the step may or may not have run: retry with the same operation ID")
          .hasMessageContaining("a lookup that finds nothing is no answer")
          .hasMessageNotContaining("or look it up");

      // The retry waits out the pause; however it and the first attempt interleave, one applies.
      assertThat(destination().write(token, operation, "one"))
          .isInstanceOfAny(Applied.class, AlreadyApplied.class);
      assertThat(client.hget(RedisFenceStore.documentKey("reports", resource), "version"))
          .isEqualTo("1");
    }
  }

  @Test
  void aFenceThatIsNotAnEpochStopsTheScriptBeforeItWrites() {
    ResourceId resource = ResourceId.of("empty-epoch");
    String fence = RedisFenceStore.fenceKey(resource);
    client.hset(fence, "epoch", "");
    FencingToken token = new FencingToken("issuer-1", resource, Epoch.of(5), "worker-a");

    assertThatThrownBy(() -> destination().register(token))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
        .hasMessageContaining(fence + " field epoch holds ''");
    assertThat(client.hgetAll(fence)).isEqualTo(Map.of("epoch", ""));
  }

  @Test
  void aVersionFrom10To14OnIsRecordedWithAllItsDigits() {
    ResourceId resource = ResourceId.of("long-lived");
    client.hset(RedisFenceStore.documentKey("reports", resource), "version", "99999999999999");
    FencingToken token = new FencingToken("issuer-1", resource, Epoch.of(1), "worker-a");

    WriteOutcome outcome = destination().write(token, OperationId.of("op-1"), "one");

    assertThat(outcome).isInstanceOf(Applied.class);
    assertThat(((Applied) outcome).receipt().attributes())
        .containsEntry("version", "100000000000000");
  }

  @Test
  void aBadAnswerAfterTheScriptRanHasAnUnknownOutcome() {
    ResourceId resource = ResourceId.of("bad-replay");
    RedisDestination reports = destination();
    FencingToken first = new FencingToken("issuer-1", resource, Epoch.of(1), "worker-a");
    FencingToken newer = new FencingToken("issuer-1", resource, Epoch.of(2), "worker-b");
    reports.write(first, OperationId.of("op-1"), "one");
    // A record that matches the request's fingerprint but does not parse: the script replays it
    // and registers the newer epoch before Java finds out.
    String fingerprint = RequestFingerprint.sha256("one").value();
    client.hset(RedisFenceStore.operationsKey("reports", resource), "op-1", "x " + fingerprint);

    assertThatThrownBy(() -> reports.write(newer, OperationId.of("op-1"), "one"))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue())
        .hasMessageContaining("the fence script ran before this was found");
    assertThat(reports.currentEpoch(resource)).isEqualTo(Epoch.of(2));
  }

  private static boolean sentinelSubscribed(RedisServer primary) {
    try (Jedis admin = new Jedis("127.0.0.1", primary.port())) {
      return admin.pubsubNumSub("__sentinel__:hello").get("__sentinel__:hello") > 0;
    }
  }

  /** Polls {@code condition} until it holds, for at most 10 s. */
  private static void await(java.util.function.BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Gave up waiting for " + what + " after 10 s");
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
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
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.outcomeUnknown()).isFalse())
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
