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
   * Opens the store on {@code redis} after checking that the server can keep the guarantees: a
   * primary, not in cluster mode, {@code appendonly yes}, {@code appendfsync always}, and a {@code
   * maxmemory-policy} that never evicts keys without a TTL. The client stays the caller's: close it
   * yourself.
   *
   * @param redis a client of one Redis server (for example {@code RedisClient.create(host, port)})
   * @param where the server as shown in messages, e.g. {@code redis://10.0.0.5:6379} (no password)
   * @throws UnsafeStoreException if a setting breaks a guarantee, or the server refuses {@code
   *     CONFIG GET} so that it cannot be checked; the message names the setting and the fix
   * @throws StoreException if the server cannot be reached
   */
  public static RedisFenceStore open(UnifiedJedis redis, String where) {
    RedisFenceStore store = new RedisFenceStore(redis, where);
    store.checkSafety();
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
   * @throws StoreException if the server failed or answered something the script never answers; if
   *     the connection failed after the script may have been sent, with an unknown outcome
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
      throw failed(action, e, false);
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
            + "?)",
        null);
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

  /** A bad value in a key this store owns: a clear error instead of a wrong answer. */
  StoreException corrupt(String action, String key, String value, String expected) {
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
            + " (only RedisDestination may write fenceline:* keys)",
        null);
  }

  private Epoch epoch(String value, String key, String action) {
    if (value == null) {
      return Epoch.NONE;
    }
    try {
      return Epoch.of(Long.parseLong(value));
    } catch (IllegalArgumentException e) {
      throw corrupt(action, key + " field epoch", value, "an epoch (a decimal from 0 to 2^63-1)");
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
              + "); the step may or may not have run: retry with the same operation ID, or look"
              + " it up",
          e,
          true);
    }
    return new StoreException(
        "Cannot " + action + " at " + where + ": " + e.getMessage() + hint, e, false);
  }

  private void checkSafety() {
    String action = "open the fence store";
    Map<String, String> replication;
    Map<String, String> cluster;
    String appendonly;
    String appendfsync;
    String eviction;
    try {
      replication = fields(redis.info("replication"));
      cluster = fields(redis.info("cluster"));
      appendonly = config("appendonly");
      appendfsync = config("appendfsync");
      eviction = config("maxmemory-policy");
    } catch (JedisDataException e) {
      throw new UnsafeStoreException(
          "Cannot check that "
              + where
              + " keeps acknowledged epochs: it refused "
              + e.getMessage()
              + " (allow INFO and CONFIG GET for this user, or check appendonly, appendfsync and"
              + " maxmemory-policy yourself and use openWithoutSafetyChecks)");
    } catch (JedisException e) {
      throw failed(action, e, false);
    }
    String role = replication.getOrDefault("role", "unknown");
    if (!role.equals("master")) {
      throw new UnsafeStoreException(
          "Cannot use "
              + where
              + " as a fence store: it is a "
              + role
              + ", not the primary; replication is asynchronous, so a replica can be behind the"
              + " epochs the primary acknowledged (R5). Connect to the primary.");
    }
    if ("1".equals(cluster.get("cluster_enabled"))) {
      throw new UnsafeStoreException(
          "Cannot use "
              + where
              + " as a fence store: it runs in cluster mode, whose automatic failover promotes a"
              + " replica that can miss acknowledged registrations, so an older epoch is accepted"
              + " again (R1, R5). Use one primary without failover.");
    }
    if (!appendonly.equals("yes") || !appendfsync.equals("always")) {
      throw new UnsafeStoreException(
          "Cannot use "
              + where
              + " as a fence store: appendonly is "
              + appendonly
              + " and appendfsync is "
              + appendfsync
              + ", so a crash can lose acknowledged registrations and writes and accept an older"
              + " epoch again (R1). Set appendonly yes and appendfsync always (redis.conf, or"
              + " CONFIG SET appendonly yes and CONFIG SET appendfsync always).");
    }
    if (eviction.startsWith("allkeys-")) {
      throw new UnsafeStoreException(
          "Cannot use "
              + where
              + " as a fence store: maxmemory-policy is "
              + eviction
              + ", which may evict a fence and so forget its epoch (R1). Set maxmemory-policy"
              + " noeviction (or a volatile-* policy: fence keys have no TTL).");
    }
    String replicas = replication.getOrDefault("connected_slaves", "0");
    if (!replicas.equals("0")) {
      LOG.log(
          System.Logger.Level.WARNING,
          "{0} has {1} connected replica(s): never fail over to one. Replication is asynchronous"
              + " and WAIT does not make it safe: a promoted replica can miss acknowledged epochs"
              + " (R1, R5).",
          where,
          replicas);
    }
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
  private static Map<String, String> fields(String info) {
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
