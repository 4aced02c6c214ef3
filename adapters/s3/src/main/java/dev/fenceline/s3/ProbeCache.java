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

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Passing results of the {@linkplain ConditionalWriteProbe conditional-write probe}, one file per
 * endpoint, bucket and prefix ({@code <directory>/<sha-256 of the three>.json}, written
 * atomically), so that a command run from cron does not send the probe's 31 requests every time.
 *
 * <p>Only a pass is kept, with the identity of the pointer store in the bucket at the time ({@code
 * .fenceline/pointers/store}, created once per bucket and prefix): a cached pass counts only while
 * it is younger than the expiry and the bucket still holds that identity, so a re-created bucket,
 * another server behind the same URL without the old objects, or a changed prefix probes again. A
 * failure is never kept: the next run probes again, and a fixed endpoint is seen at once.
 *
 * <p>What a stale pass could still hide is a server that was changed in place to one that ignores
 * conditional writes while keeping the bucket's objects; a long-running process that probed once at
 * start has the same exposure for its whole life. {@code fenceline doctor --recheck} (or {@code
 * probe-cache: 0}) probes afresh. A cache that cannot be read or written is ignored (the probe
 * runs; a write failure is logged).
 */
final class ProbeCache {

  /** The default expiry of a cached pass: 24 hours. */
  static final Duration DEFAULT_EXPIRY = Duration.ofHours(24);

  private static final int FORMAT = 1;
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final System.Logger LOG = System.getLogger(ProbeCache.class.getName());

  /** A cached pass and the pointer store identity the bucket held when it was probed. */
  record Entry(ConditionalWrites result, String storeId, Instant probedAt) {}

  private final Path directory;
  private final Duration expiry;
  private final Clock clock;

  ProbeCache(Path directory, Duration expiry, Clock clock) {
    this.directory = requireNonNull(directory, "directory is null");
    this.expiry = requireNonNull(expiry, "expiry is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * {@code $XDG_CACHE_HOME/fenceline/s3-probe}, or {@code ~/.cache/fenceline/s3-probe} without it.
   */
  static Path defaultDirectory(Function<String, String> environment) {
    String cache = environment.apply("XDG_CACHE_HOME");
    Path base =
        cache != null && !cache.isBlank() && Path.of(cache).isAbsolute()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("fenceline").resolve("s3-probe");
  }

  Path directory() {
    return directory;
  }

  Duration expiry() {
    return expiry;
  }

  /** The file of {@code location}'s entry. */
  Path file(S3Location location) {
    String identity = location.endpoint() + "\n" + location.bucket() + "\n" + location.prefix();
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
      return directory.resolve(HexFormat.of().formatHex(hash) + ".json");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The cached pass of {@code location}, if one is there, readable, of it and not expired. */
  Optional<Entry> read(S3Location location) {
    Path file = file(location);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonNode root = JSON.readTree(Files.readAllBytes(file));
      if (root == null
          || root.path("format").asInt(0) != FORMAT
          || !root.path("endpoint").asString("").equals(location.endpoint())
          || !root.path("bucket").asString("").equals(location.bucket())
          || !root.path("prefix").asString("\u0000").equals(location.prefix())
          || !root.path("store-id").isString()
          || !root.path("passed").isArray()) {
        return Optional.empty();
      }
      Instant probedAt = Instant.parse(root.path("probed-at").asString(""));
      Instant now = clock.instant();
      // A date in the future (a clock set back) is not trusted either.
      if (probedAt.isAfter(now.plusSeconds(60)) || !probedAt.plus(expiry).isAfter(now)) {
        return Optional.empty();
      }
      List<String> passed = new ArrayList<>();
      root.path("passed").forEach(check -> passed.add(check.asString("")));
      return Optional.of(
          new Entry(
              new ConditionalWrites(location.describe(), passed, Optional.empty()),
              root.path("store-id").asString(),
              probedAt));
    } catch (IOException | JacksonException | DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** Keeps a pass of {@code location}; a failure to write is logged, not thrown. */
  void write(S3Location location, ConditionalWrites result, String storeId) {
    if (!result.honoured()) {
      return;
    }
    ObjectNode root =
        JSON.createObjectNode()
            .put("format", FORMAT)
            .put("endpoint", location.endpoint())
            .put("bucket", location.bucket())
            .put("prefix", location.prefix())
            .put("store-id", storeId)
            .put("probed-at", clock.instant().toString());
    result.passed().forEach(root.putArray("passed")::add);
    Path file = file(location);
    Path temporary = null;
    try {
      Files.createDirectories(directory);
      temporary = Files.createTempFile(directory, ".probe-", ".tmp");
      Files.write(temporary, JSON.writeValueAsBytes(root));
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
      temporary = null;
    } catch (IOException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot keep the conditional-write probe result of "
              + location.describe()
              + " in "
              + file
              + ": "
              + e
              + " (the next run probes again)");
    } finally {
      if (temporary != null) {
        try {
          Files.deleteIfExists(temporary);
        } catch (IOException e) {
          // best effort
        }
      }
    }
  }
}
