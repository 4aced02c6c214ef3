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

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.StoreRole;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * The {@code s3} adapter: an {@link S3Store} offering its {@link S3BlobStore} and, on endpoints
 * that pass the conditional-write probe, {@link S3PointerStore}s. Its keys are declared in {@link
 * #configKeys()} (listed in {@code docs/configuration-reference.md}). Credentials are not
 * configured here: they come from the SDK's default provider chain (environment, system properties,
 * profile, container or instance role), and never appear in messages.
 *
 * <p>{@link Adapter#pointerStore(String)} probes the endpoint on first use and throws a {@link
 * dev.fenceline.spi.ConfigurationException} if it ignores conditional writes; use the blob store
 * with another adapter's pointer store there.
 */
public final class S3AdapterFactory implements AdapterFactory {

  /**
   * The system property that makes every {@code s3} store created afterwards probe again instead of
   * using a cached pass, and cache the new result ({@code fenceline doctor --recheck} sets it).
   */
  public static final String RECHECK_PROPERTY = "fenceline.s3.probe-recheck";

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("bucket")
              .required()
              .example("reports-prod")
              .description("The bucket.")
              .build(),
          ConfigKey.string("prefix")
              .description("The key prefix inside the bucket, such as teams/reports.")
              .build(),
          ConfigKey.string("region")
              .description(
                  "The AWS region, such as eu-central-1; unset: the SDK's region chain, or"
                      + " us-east-1 with an endpoint.")
              .build(),
          ConfigKey.uri("endpoint")
              .description(
                  "An S3-compatible endpoint such as http://minio.internal:9000; unset: AWS.")
              .build(),
          ConfigKey.bool("path-style")
              .defaultValue(false)
              .description(
                  "Path-style URLs (endpoint/bucket/key), as many S3-compatible stores need.")
              .build(),
          ConfigKey.duration("connect-timeout")
              .defaultValue(S3Store.DEFAULT_CONNECT_TIMEOUT)
              .description("The time to open a connection.")
              .build(),
          ConfigKey.duration("socket-timeout")
              .defaultValue(S3Store.DEFAULT_SOCKET_TIMEOUT)
              .description("The longest wait for data on an open connection.")
              .build(),
          ConfigKey.duration("attempt-timeout")
              .defaultValue(S3Store.DEFAULT_ATTEMPT_TIMEOUT)
              .description("The longest time of one attempt of a request, at most call-timeout.")
              .build(),
          ConfigKey.duration("call-timeout")
              .defaultValue(S3Store.DEFAULT_CALL_TIMEOUT)
              .description(
                  "The longest time of one request in all, the SDK's retries included; keep it"
                      + " below the lease ttl.")
              .build(),
          ConfigKey.size(
                  "multipart-threshold", S3Store.MIN_PART_SIZE, S3Store.MAX_MULTIPART_THRESHOLD)
              .bounds("5MiB (S3's smallest part) to 2GiB")
              .defaultValue(S3Store.DEFAULT_MULTIPART_THRESHOLD)
              .description("Payloads of this size or larger are uploaded in parts.")
              .build(),
          ConfigKey.size("part-size", S3Store.MIN_PART_SIZE, S3Store.MAX_PART_SIZE)
              .bounds("5MiB (S3's smallest part) to 512MiB")
              .defaultValue(S3Store.DEFAULT_PART_SIZE)
              .description(
                  "The size of each part of a multipart upload; S3 allows 10,000 parts, so it"
                      + " bounds the largest payload.")
              .build(),
          ConfigKey.duration("probe-cache")
              .zeroAllowed()
              .defaultValue(ProbeCache.DEFAULT_EXPIRY)
              .description(
                  "How long a passing conditional-write probe is kept in"
                      + " $XDG_CACHE_HOME/fenceline/s3-probe; 0 probes in every process.")
              .build());

  @Override
  public String name() {
    return "s3";
  }

  @Override
  public List<ConfigKey> configKeys() {
    return KEYS;
  }

  @Override
  public Set<StoreRole> roles() {
    return Set.of(StoreRole.BLOB_STORE, StoreRole.POINTER_STORE);
  }

  /** Checks the keys and every setting of the store as {@link #create} does, connecting nothing. */
  @Override
  public void validate(String instanceName, Map<String, String> values) {
    builder(configuration(instanceName, values));
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    S3Store store = builder(configuration(instanceName, values)).build();
    return Adapter.builder(store::close)
        .blobStore(store.blobStore())
        .pointerStores(store::pointerStore)
        .build();
  }

  /**
   * The keys checked against their declarations, after the sizes, which this adapter explains in
   * its own words: one that is no size, a part size above what an int holds, and one outside S3's
   * bounds.
   */
  private AdapterConfig configuration(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.unchecked(this, instanceName, values);
    checkSize(config, "multipart-threshold", S3Store.Builder::checkMultipartThreshold);
    checkSize(config, "part-size", S3Store.Builder::checkPartSize);
    return config.checkValues();
  }

  private static void checkSize(AdapterConfig config, String key, LongUnaryOperator check) {
    if (!config.isSet(key)) {
      return;
    }
    String value = config.optional(key).orElseThrow();
    OptionalLong bytes = ConfigKey.parseSize(value);
    if (bytes.isEmpty()) {
      throw config.error(
          key,
          "key \""
              + key
              + "\" has value "
              + config.shown(key, value)
              + ", not a size (write bytes or a number with KiB, MiB or GiB, e.g. 16MiB)");
    }
    if (key.equals("part-size") && bytes.getAsLong() > Integer.MAX_VALUE) {
      throw config.error(
          key,
          "key \"part-size\" is "
              + bytes.getAsLong()
              + " bytes, more than S3 parts can be here (write at most 512MiB)");
    }
    config.apply(key, bytes.getAsLong(), () -> check.applyAsLong(bytes.getAsLong()));
  }

  /** The store's builder with every setting applied and checked; nothing is built or sent. */
  private static S3Store.Builder builder(AdapterConfig config) {
    String bucket = config.required("bucket");
    S3Store.Builder builder = config.apply("bucket", bucket, () -> S3Store.builder(bucket));
    config.optional("prefix").ifPresent(p -> config.apply("prefix", p, () -> builder.prefix(p)));
    config.optional("region").ifPresent(r -> config.apply("region", r, () -> builder.region(r)));
    config
        .uri("endpoint")
        .ifPresent(uri -> config.apply("endpoint", uri, () -> builder.endpoint(uri)));
    builder
        .pathStyle(config.bool("path-style").orElseThrow())
        .connectTimeout(config.duration("connect-timeout").orElseThrow())
        .socketTimeout(config.duration("socket-timeout").orElseThrow())
        .attemptTimeout(config.duration("attempt-timeout").orElseThrow())
        .callTimeout(config.duration("call-timeout").orElseThrow())
        .multipartThreshold(config.number("multipart-threshold").orElseThrow())
        .partSize((int) (long) config.number("part-size").orElseThrow());
    Duration probeCache = config.duration("probe-cache").orElseThrow();
    if (!probeCache.isZero()) {
      builder.probeCache(ProbeCache.defaultDirectory(System::getenv), probeCache);
    }
    builder.recheckProbe(Boolean.getBoolean(RECHECK_PROPERTY));
    config.apply(
        "part-size",
        config.optional("part-size").orElseThrow(),
        builder::checkPartSizeFitsThreshold);
    config.apply(
        "attempt-timeout",
        config.optional("attempt-timeout").orElseThrow(),
        builder::checkAttemptWithinCall);
    return builder;
  }
}
