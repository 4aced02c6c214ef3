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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsafeStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One Redis server that holds fences: per resource, the registered epoch and issuer, and per
 * destination the operation records and the published document. Its {@link #destination
 * destinations} share the registered epochs; each keeps its own operation records.
 *
 * <p>The supported set-up is one primary with {@code appendonly yes} and {@code appendfsync
 * always}, nothing evicting keys, and no failover to a replica: replication is asynchronous, so a
 * promoted replica can miss an acknowledged registration and accept an older epoch again (R1, R5).
 * {@link #open} checks what it can see of that and refuses the rest ({@link UnsafeStoreException}).
 *
 * <p>Keys, all with the resource as hash tag so that one script may touch them (one hash slot):
 *
 * <ul>
 *   <li>{@code fenceline:fence:{resource}}: hash with {@code epoch} and {@code issuer};
 *   <li>{@code fenceline:ops:<destination>:{resource}}: hash of operation ID to record;
 *   <li>{@code fenceline:doc:<destination>:{resource}}: hash with {@code value} and {@code
 *       version}, what readers read ({@link #documentKey}).
 * </ul>
 *
 * <p>Thread-safe if the client is (Jedis' {@code RedisClient} is: a pool of connections).
 */
public final class RedisFenceStore {

  /** The script of the fenced step ({@code fence.lua} next to this class). */
  static final String SCRIPT = resource("fence.lua");

  private static final System.Logger LOG = System.getLogger(RedisFenceStore.class.getName());

  private final UnifiedJedis redis;
  private final String where;
  private final String sha = sha1Hex(SCRIPT);

  private RedisFenceStore(UnifiedJedis redis, String where) {
    this.redis = requireNonNull(redis, "redis is null");
    this.where = requireNonNull(where, "where is null");
  }

  /**
   * Opens the store on {@code redis} after checking that the client and the server can keep the
   * guarantees: a {@link RedisClient} on one server without a client-side cache; a primary, not in
   * cluster mode, without replicas and without Sentinel watching it; {@code appendonly yes} with no
   * AOF rewrite running or scheduled and the last AOF write successful, {@code appendfsync always},
   * {@code no-appendfsync-on-rewrite no}; and a {@code maxmemory-policy} that never evicts keys
   * without a TTL. The client stays the caller's: close it yourself.
   *
   * @param redis a client of one Redis server ({@code RedisClient.create(host, port)} or {@code
   *     RedisClient.builder()} without a cache or another connection provider)
   * @param where the server as shown in messages, e.g. {@code redis://10.0.0.5:6379} (no password)
   * @throws UnsafeStoreException if the client or a setting breaks a guarantee, or the server
   *     refuses {@code INFO}, {@code CONFIG GET} or {@code PUBSUB} so that it cannot be checked;
   *     the message names the setting and the fix
   * @throws StoreException if the server cannot be reached
   */
  public static RedisFenceStore open(UnifiedJedis redis, String where) {
    RedisFenceStore store = new RedisFenceStore(redis, where);
    store.checkSafety(false);
    return store;
  }

  /**
   * Opens the store like {@link #open}, but accepts a primary that has replicas or that Sentinel
   * watches. <strong>Unsafe</strong> unless no replica is ever promoted (by Sentinel, by an
   * operator, or by anything else): replication is asynchronous, so a promoted replica can miss
   * acknowledged registrations and accept an older epoch again (R1, R5). For replicas kept as
   * backups or read copies, with {@code replica-priority 0} on each. Logs a warning.
   */
  public static RedisFenceStore openWithReplicasNeverPromoted(UnifiedJedis redis, String where) {
    RedisFenceStore store = new RedisFenceStore(redis, where);
    store.checkSafety(true);
    return store;
  }

  /**
   * Opens the store without the checks of {@link #open}: for a server whose {@code CONFIG} command
   * is disabled (some managed services) when you know its settings are the ones {@link #open}
   * requires. With other settings a crash or a failover can accept an older epoch again.
   */
  public static RedisFenceStore openWithoutSafetyChecks(UnifiedJedis redis, String where) {
    return new RedisFenceStore(redis, where);
  }

  /**
   * A destination named {@code name} on this store, reporting its steps to {@code steps} and, if
   * {@code keys} is present, refusing tokens that are not signed with them.
   *
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  public RedisDestination destination(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new RedisDestination(this, name, steps, keys);
  }

  /**
   * The hash readers read {@code resource}'s document from: fields {@code value}, {@code version}.
   */
  public static String documentKey(String destination, ResourceId resource) {
    return "fenceline:doc:" + Destination.validateName(destination) + ":" + tag(resource);
  }

  static String fenceKey(ResourceId resource) {
    return "fenceline:fence:" + tag(resource);
  }

  static String operationsKey(String destination, ResourceId resource) {
    return "fenceline:ops:" + destination + ":" + tag(resource);
  }

  /** Resource IDs have no braces ({@code [A-Za-z0-9._/-]}), so the tag is the whole ID. */
  private static String tag(ResourceId resource) {
    return "{" + resource.value() + "}";
  }

  /** What a write reads before it decides which steps to report. */
  record Seen(Epoch epoch, Optional<String> issuer, Optional<String> record) {}

  /** Reads the fence of {@code resource} and the record of {@code operation}, in one round trip. */
  Seen read(String destination, ResourceId resource, OperationId operation, String action) {
    try (AbstractPipeline pipeline = redis.pipelined()) {
      Response<List<String>> fence = pipeline.hmget(fenceKey(resource), "epoch", "issuer");
      Response<String> record =
          pipeline.hget(operationsKey(destination, resource), operation.value());
      pipeline.sync();
      return new Seen(
          epoch(fence.get().get(0), fenceKey(resource), action),
          Optional.ofNullable(fence.get().get(1)),
          Optional.ofNullable(record.get()));
    } catch (JedisException e) {
      throw failed(action, e, false);
    }
  }

  /** The registered epoch of {@code resource}, {@link Epoch#NONE} if none. */
  Epoch epoch(ResourceId resource, String action) {
    try {
      return epoch(redis.hget(fenceKey(resource), "epoch"), fenceKey(resource), action);
    } catch (JedisException e) {
      throw failed(action, e, false);
    }
  }

  /** The record of {@code operation} at {@code destination}, if any. */
  Optional<String> record(
      String destination, ResourceId resource, OperationId operation, String action) {
    try {
      return Optional.ofNullable(
          redis.hget(operationsKey(destination, resource), operation.value()));
    } catch (JedisException e) {
      throw failed(action, e, false);
    }
  }

  /** The script's answer: a tag and one value (see {@code fence.lua}). */
  record Answer(String tag, String value) {}

  /**
   * Runs the script: EVALSHA, and EVAL if the server does not have it cached (after a restart or a
   * {@code SCRIPT FLUSH}); EVAL caches it again.
   *
   * @throws StoreException if the server failed or answered something the script never answers;
   *     with an unknown outcome if the connection failed after the script may have been sent, if
   *     the script failed while it ran, or if its answer is not one it gives
   */
  Answer run(List<String> keys, List<String> args, String action) {
    Object answer;
    try {
      try {
        answer = redis.evalsha(sha, keys, args);
      } catch (JedisNoScriptException e) {
        answer = redis.eval(SCRIPT, keys, args);
      }
    } catch (JedisConnectionException e) {
      throw failed(action, e, true);
    } catch (JedisException e) {
      // An error raised while the script ran (Redis names it user_script) leaves what the script
      // wrote before it: Redis does not roll back. Other errors come before the script starts.
      throw failed(action, e, String.valueOf(e.getMessage()).contains("user_script"));
    }
    if (answer instanceof List<?> list
        && list.size() == 2
        && text(list.get(0)) instanceof String tag
        && text(list.get(1)) instanceof String value) {
      return new Answer(tag, value);
    }
    throw new StoreException(
        "Cannot "
            + action
            + " at "
            + where
            + ": the fence script answered "
            + describe(answer)
            + ", which is not {tag, value} (is another script cached under SHA1 "
            + sha
            + "?); it ran, so it may have changed something: retry with the same operation ID",
        null,
        true);
  }

  /** Bulk strings arrive decoded or as bytes, depending on the client's settings. */
  private static Object text(Object element) {
    return element instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : element;
  }

  private static String describe(Object answer) {
    if (answer instanceof List<?> list) {
      return list.stream().map(RedisFenceStore::text).toList().toString();
    }
    return String.valueOf(text(answer));
  }

  /**
   * A bad value in a key this store owns: a clear error instead of a wrong answer. {@code
   * scriptRan}: the value came from the script's answer, so the script may have written before it
   * answered, and the outcome is unknown.
   */
  StoreException corrupt(
      String action, String key, String value, String expected, boolean scriptRan) {
    return new StoreException(
        "Cannot "
            + action
            + " at "
            + where
            + ": "
            + key
            + " holds "
            + "'"
            + value
            + "'"
            + ", which is not "
            + expected
            + " (only RedisDestination may write fenceline:* keys)"
            + (scriptRan
                ? "; the fence script ran before this was found, so it may have changed something:"
                    + " fix the key, then retry with the same operation ID"
                : ""),
        null,
        scriptRan);
  }

  private Epoch epoch(String value, String key, String action) {
    if (value == null) {
      return Epoch.NONE;
    }
    try {
      return Epoch.of(Long.parseLong(value));
    } catch (IllegalArgumentException e) {
      throw corrupt(
          action, key + " field epoch", value, "an epoch (a decimal from 0 to 2^63-1)", false);
    }
  }

  private StoreException failed(String action, JedisException e, boolean mayHaveRun) {
    String hint =
        e instanceof JedisDataException && String.valueOf(e.getMessage()).startsWith("READONLY")
            ? " (this server is a replica: point the destination at the primary)"
            : "";
    if (mayHaveRun) {
      return new StoreException(
          "Cannot "
              + action
              + " at "
              + where
              + ": the connection failed ("
              + e.getMessage()
              + "); the step may or may not have run: retry with the same operation ID, which"
              + " applies it at most once (a lookup that finds nothing is no answer while the old"
              + " connection may still deliver the script)",
          e,
          true);
    }
    return new StoreException(
        "Cannot " + action + " at " + where + ": " + e.getMessage() + hint, e, false);
  }

  private void checkSafety(boolean replicasNeverPromoted) {
    checkClient();
    String action = "open the fence store";
    Map<String, String> replication;
    Map<String, String> cluster;
    Map<String, String> persistence;
    Map<String, String> config;
    long sentinels;
    try {
      replication = fields(redis.info("replication"));
      cluster = fields(redis.info("cluster"));
      persistence = fields(redis.info("persistence"));
      config = new java.util.HashMap<>();
      for (String name :
          List.of("appendonly", "appendfsync", "no-appendfsync-on-rewrite", "maxmemory-policy")) {
        config.put(name, config(name));
      }
      sentinels = subscribers(SENTINEL_CHANNEL);
    } catch (JedisDataException e) {
      throw new UnsafeStoreException(
          "Cannot check that "
              + where
              + " keeps acknowledged epochs: it refused "
              + e.getMessage()
              + " (allow INFO, CONFIG GET and PUBSUB NUMSUB for this user, or check the settings"
              + " RedisFenceStore.open names yourself and use openWithoutSafetyChecks)");
    } catch (JedisException e) {
      throw failed(action, e, false);
    }
    String role = replication.getOrDefault("role", "unknown");
    if (!role.equals("master")) {
      throw unsafe(
          "it is a "
              + role
              + ", not the primary; replication is asynchronous, so a replica can be behind the"
              + " epochs the primary acknowledged (R5). Connect to the primary.");
    }
    if ("1".equals(cluster.get("cluster_enabled"))) {
      throw unsafe(
          "it runs in cluster mode, whose automatic failover promotes a replica that can miss"
              + " acknowledged registrations, so an older epoch is accepted again (R1, R5). Use one"
              + " primary without failover.");
    }
    String appendonly = config.get("appendonly");
    String appendfsync = config.get("appendfsync");
    if (!appendonly.equals("yes") || !appendfsync.equals("always")) {
      throw unsafe(
          "appendonly is "
              + appendonly
              + " and appendfsync is "
              + appendfsync
              + ", so a crash can lose acknowledged registrations and writes and accept an older"
              + " epoch again (R1). "
              + PERSIST_SETTINGS);
    }
    String noFsyncOnRewrite = config.get("no-appendfsync-on-rewrite");
    if (!noFsyncOnRewrite.equals("no")) {
      throw unsafe(
          "no-appendfsync-on-rewrite is "
              + noFsyncOnRewrite
              + ": while an AOF rewrite or an RDB save runs, Redis answers without fsyncing the"
              + " AOF, even with appendfsync always, so a power loss can forget acknowledged"
              + " registrations (R1). Set no-appendfsync-on-rewrite no (in redis.conf, or CONFIG"
              + " SET then CONFIG REWRITE).");
    }
    checkAof(persistence);
    String eviction = config.get("maxmemory-policy");
    if (eviction.startsWith("allkeys-")) {
      throw unsafe(
          "maxmemory-policy is "
              + eviction
              + ", which may evict a fence and so forget its epoch (R1). Set maxmemory-policy"
              + " noeviction (or a volatile-* policy: fence keys have no TTL).");
    }
    String replicas = replication.getOrDefault("connected_slaves", "0");
    if (replicas.equals("0") && sentinels == 0) {
      return;
    }
    String what =
        where
            + " has "
            + replicas
            + " connected replica(s) and "
            + sentinels
            + " Sentinel(s) watching it";
    String why =
        "replication is asynchronous and WAIT or WAITAOF do not make it safe, so a promoted"
            + " replica can miss acknowledged epochs and accept an older one again (R1, R5)";
    if (!replicasNeverPromoted) {
      throw unsafe(
          "it has "
              + replicas
              + " connected replica(s) and "
              + sentinels
              + " Sentinel(s) watching it (PUBSUB NUMSUB "
              + SENTINEL_CHANNEL
              + "): "
              + why
              + ". Use one primary without failover; if no replica is ever promoted"
              + " (replica-priority 0, no Sentinel failover, none by hand), open it with"
              + " openWithReplicasNeverPromoted.");
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "{0}, opened with openWithReplicasNeverPromoted: never promote one; {1}.",
        what,
        why);
  }

  /** PUBSUB NUMSUB of one channel: answers {channel, count}. */
  private long subscribers(String channel) {
    Object answer = redis.sendCommand(Protocol.Command.PUBSUB, "NUMSUB", channel);
    if (answer instanceof List<?> list && list.size() == 2 && list.get(1) instanceof Long count) {
      return count;
    }
    throw new UnsafeStoreException(
        "Cannot check that "
            + where
            + " has no Sentinel watching it: PUBSUB NUMSUB "
            + channel
            + " answered "
            + describe(answer)
            + " (check it yourself and use openWithoutSafetyChecks)");
  }

  /** The channel every Sentinel that monitors a primary subscribes to on it. */
  private static final String SENTINEL_CHANNEL = "__sentinel__:hello";

  private static final String PERSIST_SETTINGS =
      "Set appendonly yes and appendfsync always in redis.conf, or CONFIG SET them and then CONFIG"
          + " REWRITE (a CONFIG SET alone is lost at the next restart).";

  /**
   * The AOF as it is, not as configured: right after {@code CONFIG SET appendonly yes} the writes
   * are only in memory until the first AOF rewrite has finished.
   */
  void checkAof(Map<String, String> persistence) {
    String[][] required = {
      {"aof_enabled", "1"},
      {"aof_rewrite_in_progress", "0"},
      {"aof_rewrite_scheduled", "0"},
      {"aof_last_write_status", "ok"},
    };
    for (String[] field : required) {
      String value = persistence.get(field[0]);
      if (!field[1].equals(value)) {
        throw unsafe(
            "INFO persistence reports "
                + field[0]
                + ":"
                + value
                + " (needs "
                + field[1]
                + "), so the AOF may not hold what the server acknowledges (R1): right after AOF"
                + " is turned on at runtime, writes stay in memory until the first AOF rewrite"
                + " finishes, and a failed AOF write is not on disk. "
                + PERSIST_SETTINGS
                + " Open the store once the rewrite has finished and aof_last_write_status is ok.");
      }
    }
  }

  /**
   * Only a {@link RedisClient} on one server, without a client-side cache: a Sentinel or multi-
   * database client follows a promoted replica silently, a cluster client spans primaries, and a
   * cache can answer a read of a fence or a record from a stale copy.
   */
  private void checkClient() {
    String kind = redis.getClass().getName();
    boolean single;
    if (redis instanceof RedisClient client) {
      try {
        client.getPool(); // a RedisClient built with another ConnectionProvider has no pool
        single = true;
      } catch (ClassCastException e) {
        single = false;
        kind = "RedisClient with a ConnectionProvider other than PooledConnectionProvider";
      }
    } else {
      single = false;
    }
    if (!single) {
      throw unsafe(
          "the client is a "
              + kind
              + ", which may follow a failover to a replica (Sentinel, MultiDbClient) or span"
              + " several primaries (cluster), and open cannot tell that it talks to one server."
              + " Pass RedisClient.create(host, port) or a RedisClient.builder() client without a"
              + " connectionProvider.");
    }
    if (redis.getCache() != null) {
      throw unsafe(
          "the client has a client-side cache, which can answer a read of a fence or an"
              + " operation record from a stale copy. Build the RedisClient without cache() or"
              + " cacheConfig().");
    }
  }

  private UnsafeStoreException unsafe(String reason) {
    return new UnsafeStoreException("Cannot use " + where + " as a fence store: " + reason);
  }

  private String config(String name) {
    Map<String, String> values = redis.configGet(name);
    String value = values.get(name);
    if (value == null) {
      throw new UnsafeStoreException(
          "Cannot check that "
              + where
              + " keeps acknowledged epochs: CONFIG GET "
              + name
              + " answered "
              + values
              + " (check the setting yourself and use openWithoutSafetyChecks)");
    }
    return value;
  }

  /** The {@code name:value} lines of an INFO section. */
  static Map<String, String> fields(String info) {
    Map<String, String> fields = new java.util.HashMap<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return fields;
  }

  private static String resource(String name) {
    try (InputStream in = RedisFenceStore.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(
            name + " is missing next to " + RedisFenceStore.class.getName() + " in the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha1Hex(String script) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-1", e);
    }
  }

  @Override
  public String toString() {
    return "RedisFenceStore[" + where + "]";
  }
}
