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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * One S3 bucket (optionally under a key prefix) and the Fenceline components built on it: an {@link
 * S3BlobStore} for payloads and {@link S3PointerStore}s that fence publishing with S3's conditional
 * writes, with no database.
 *
 * <p>Before the first pointer store is handed out, the store {@linkplain #conditionalWrites()
 * probes} the endpoint: an endpoint that ignores {@code If-Match}/{@code If-None-Match} (S3Proxy
 * 2.x, some S3-compatible stores) gets no pointer store, whatever the settings; use its blob store
 * with a JDBC pointer store there.
 *
 * <p>Credentials come from the SDK's default provider chain unless {@link
 * Builder#credentials(AwsCredentialsProvider)} is given; they are never logged or shown in
 * messages. The HTTP client is the Apache 5 client unless {@link Builder#httpClient} is given. The
 * store owns the SDK client and closes it in {@link #close()}. Thread-safe.
 */
public final class S3Store implements AutoCloseable {

  /** Default size above which {@link S3BlobStore#put} uploads in parts: 16 MiB. */
  public static final long DEFAULT_MULTIPART_THRESHOLD = 16L * 1024 * 1024;

  /** Default part size of multipart uploads: 8 MiB (S3's minimum is 5 MiB). */
  public static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;

  /** S3's smallest part size but for the last part: 5 MiB. */
  public static final int MIN_PART_SIZE = 5 * 1024 * 1024;

  /** The largest {@linkplain Builder#partSize part size}: 512 MiB, one part buffered at a time. */
  public static final int MAX_PART_SIZE = 512 * 1024 * 1024;

  /**
   * The largest {@linkplain Builder#multipartThreshold multipart threshold}: just under 2 GiB, the
   * most one array buffers.
   */
  public static final long MAX_MULTIPART_THRESHOLD = Integer.MAX_VALUE - 8;

  /** The default {@linkplain Builder#connectTimeout connect timeout}: 3 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(3);

  /** The default {@linkplain Builder#socketTimeout socket timeout}: 10 s. */
  public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(10);

  /** The default {@linkplain Builder#attemptTimeout attempt timeout}: 10 s. */
  public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

  /** The default {@linkplain Builder#callTimeout call timeout}: 20 s. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(20);

  private final S3Location location;
  private final long multipartThreshold;
  private final int partSize;
  private final S3BlobStore blobStore;
  private final TokenKeys tokenKeys;
  private final ProbeCache probeCache;
  private final boolean recheckProbe;
  private final Object probeLock = new Object();
  private ConditionalWrites conditionalWrites;
  private String pointerStoreId;

  private S3Store(Builder builder, S3Client client, String endpoint) {
    this.location = new S3Location(client, builder.bucket, builder.prefix, endpoint);
    this.tokenKeys = builder.tokenKeys;
    this.probeCache =
        builder.probeCacheDirectory == null
            ? null
            : new ProbeCache(
                builder.probeCacheDirectory, builder.probeCacheExpiry, Clock.systemUTC());
    this.recheckProbe = builder.recheckProbe;
    this.multipartThreshold = builder.multipartThreshold;
    this.partSize = builder.partSize;
    this.blobStore = new S3BlobStore(location, multipartThreshold, partSize);
  }

  /** A builder for a store on {@code bucket}. */
  public static Builder builder(String bucket) {
    return new Builder(bucket);
  }

  /** {@code s3://bucket/prefix at endpoint}, as shown in messages. */
  public String location() {
    return location.describe();
  }

  /**
   * Probes the endpoint's conditional writes once (31 requests on probe keys under the prefix, some
   * of them concurrent, deleted afterwards) and returns the result; later calls return the same
   * result. A pass means no check failed, not that the endpoint is proven atomic under concurrent
   * writes (see {@link ConditionalWrites}).
   *
   * <p>With a {@linkplain Builder#probeCache probe cache}, a pass cached for this endpoint, bucket
   * and prefix is used instead while it has not expired and the bucket still holds the pointer
   * store identity it was cached with (one GET instead of the probe); a fresh pass is cached with
   * that identity (created if missing). {@linkplain Builder#recheckProbe Rechecking} probes anyway.
   *
   * @throws dev.fenceline.spi.StoreException if the endpoint cannot be reached or refuses access
   */
  public ConditionalWrites conditionalWrites() {
    synchronized (probeLock) {
      if (conditionalWrites != null) {
        return conditionalWrites;
      }
      if (probeCache != null && !recheckProbe) {
        Optional<ProbeCache.Entry> cached = probeCache.read(location);
        if (cached.isPresent()
            && S3PointerStore.readStoreId(location)
                .filter(cached.get().storeId()::equals)
                .isPresent()) {
          pointerStoreId = cached.get().storeId();
          conditionalWrites = cached.get().result();
          return conditionalWrites;
        }
      }
      ConditionalWrites probed = ConditionalWriteProbe.run(location);
      if (probeCache != null && probed.honoured()) {
        if (pointerStoreId == null) {
          pointerStoreId = S3PointerStore.loadStoreId(location);
        }
        probeCache.write(location, probed, pointerStoreId);
      }
      conditionalWrites = probed;
      return conditionalWrites;
    }
  }

  /**
   * A fenced copy of published objects at {@code fixedKey} (under the prefix), for readers that
   * cannot resolve a pointer; see {@link FixedKeyCopy}. Probes the endpoint first.
   *
   * @throws ConfigurationException if the endpoint does not honour conditional writes: a copy there
   *     could move the fixed key back to an older version
   */
  public FixedKeyCopy fixedKeyCopy(BlobKey fixedKey) {
    requireNonNull(fixedKey, "fixedKey is null");
    conditionalWrites()
        .require(
            "keep a fixed-key copy at " + location.describe(location.objectKey(fixedKey)),
            "a late copy by a stale process could replace a newer one there; let readers resolve"
                + " the pointer with StagedDestination.open instead");
    return new FixedKeyCopy(location, fixedKey);
  }

  /**
   * The blob store on this bucket and prefix (the same one on every call). It works on any
   * endpoint, also one that fails the {@linkplain #conditionalWrites() probe}: there it cannot
   * refuse a put on an existing key (see {@link S3BlobStore}), which staged publishing never does.
   */
  public S3BlobStore blobStore() {
    return blobStore;
  }

  /**
   * The pointer store ("publish a named value") named {@code name} in this bucket and prefix,
   * fenced by conditional writes. The name scopes its publish pointers and operation records; the
   * registered epochs are per resource, shared by every name.
   *
   * <p>The first call probes the endpoint ({@link #conditionalWrites()}); on an endpoint that does
   * not honour conditional writes no pointer store opens, whatever the settings.
   *
   * @param name 1 to 64 characters from {@code [a-z0-9._-]}
   * @throws IllegalArgumentException if the name breaks the rule
   *     <p>It also records itself as the pointer store of destination {@code name} under the prefix
   *     ({@link S3BlobStore#recordPointerStore}), and refuses to open where another pointer store
   *     (a JDBC one) is recorded for that name: processes that publish one destination through
   *     different pointer stores would not fence each other.
   * @throws ConfigurationException if the endpoint failed the probe (the message names the
   *     endpoint, the failed check and the fix: S3 as a blob store with a JDBC pointer store), or
   *     another pointer store is recorded for {@code name}
   * @throws dev.fenceline.spi.StoreException if the endpoint cannot be reached
   */
  public S3PointerStore pointerStore(String name) {
    return pointerStore(name, StepListener.NONE);
  }

  /**
   * A pointer store named {@code name} that reports its steps to {@code steps} (tests, tracing).
   *
   * @see #pointerStore(String)
   */
  public S3PointerStore pointerStore(String name, StepListener steps) {
    Destination.validateName(name);
    requireNonNull(steps, "steps is null");
    String id;
    synchronized (probeLock) {
      conditionalWrites()
          .require(
              "open the S3 pointer store \"" + name + "\"",
              "use S3 as a blob store with a JDBC pointer store:"
                  + " StagedDestination.builder(s3.blobStore(), jdbcStore.pointerStore(name))");
      if (pointerStoreId == null) {
        pointerStoreId = S3PointerStore.loadStoreId(location);
      }
      id = pointerStoreId;
    }
    S3PointerStore pointers =
        new S3PointerStore(location, name, id, steps, Clock.systemUTC(), tokenKeys);
    blobStore.recordPointerStore(pointers);
    return pointers;
  }

  S3Location s3Location() {
    return location;
  }

  long multipartThreshold() {
    return multipartThreshold;
  }

  int partSize() {
    return partSize;
  }

  /** Closes the SDK client (and the HTTP client the store created). */
  @Override
  public void close() {
    location.client().close();
  }

  /** Settings of an {@link S3Store}; every setting but the bucket has a default. */
  public static final class Builder {
    private final String bucket;
    private String prefix = "";
    private String region;
    private URI endpoint;
    private boolean pathStyle;
    private AwsCredentialsProvider credentials;
    private SdkHttpClient httpClient;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
    private Duration attemptTimeout = DEFAULT_ATTEMPT_TIMEOUT;
    private Duration callTimeout = DEFAULT_CALL_TIMEOUT;
    private long multipartThreshold = DEFAULT_MULTIPART_THRESHOLD;
    private int partSize = DEFAULT_PART_SIZE;
    private TokenKeys tokenKeys;
    private Path probeCacheDirectory;
    private Duration probeCacheExpiry;
    private boolean recheckProbe;

    private Builder(String bucket) {
      requireNonNull(bucket, "bucket is null");
      if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
        throw new ConfigurationException(
            "Cannot use S3 bucket \""
                + bucket
                + "\": a bucket name is 3 to 63 characters from [a-z0-9.-], starting and ending"
                + " with a letter or digit (e.g. reports-prod)");
      }
      this.bucket = bucket;
    }

    /**
     * Keeps every object under {@code prefix/} (a {@link BlobKey}-shaped path such as {@code
     * teams/reports}); by default the bucket's root.
     */
    public Builder prefix(String prefix) {
      requireNonNull(prefix, "prefix is null");
      String trimmed = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
      if (!trimmed.isEmpty()) {
        try {
          BlobKey.of(trimmed);
        } catch (IllegalArgumentException e) {
          throw new ConfigurationException(
              "Cannot use S3 key prefix \"" + prefix + "\": " + e.getMessage(), e);
        }
      }
      this.prefix = trimmed;
      return this;
    }

    /**
     * The region, e.g. {@code eu-central-1}; by default the SDK's region provider chain ({@code
     * AWS_REGION}, the profile), or {@code us-east-1} when an {@link #endpoint} is set.
     */
    public Builder region(String region) {
      requireNonNull(region, "region is null");
      if (!region.matches("[a-z0-9-]{1,64}")) {
        throw new ConfigurationException(
            "Cannot use S3 region \"" + region + "\": expected a region name such as eu-central-1");
      }
      this.region = region;
      return this;
    }

    /**
     * An S3-compatible endpoint instead of AWS, e.g. {@code http://minio.internal:9000}. Such
     * endpoints get request checksums only where S3 requires them (many do not support the newer
     * default ones).
     */
    public Builder endpoint(URI endpoint) {
      requireNonNull(endpoint, "endpoint is null");
      if (endpoint.getScheme() == null
          || !(endpoint.getScheme().equals("http") || endpoint.getScheme().equals("https"))
          || endpoint.getHost() == null) {
        throw new ConfigurationException(
            "Cannot use S3 endpoint \""
                + Endpoints.redact(endpoint)
                + "\": expected an http or https URL with a host (e.g. https://s3.example.com)");
      }
      if (endpoint.getUserInfo() != null) {
        throw new ConfigurationException(
            "Cannot use S3 endpoint \""
                + Endpoints.redact(endpoint)
                + "\": it carries user information; pass credentials with credentials(...) or the"
                + " SDK's provider chain, never in the URL");
      }
      this.endpoint = endpoint;
      return this;
    }

    /** Path-style URLs ({@code endpoint/bucket/key}), as many S3-compatible stores need. */
    public Builder pathStyle(boolean pathStyle) {
      this.pathStyle = pathStyle;
      return this;
    }

    /** Credentials instead of the SDK's default provider chain. Never logged. */
    public Builder credentials(AwsCredentialsProvider credentials) {
      this.credentials = requireNonNull(credentials, "credentials is null");
      return this;
    }

    /**
     * The HTTP client instead of an Apache 5 client built with the timeouts below. The store does
     * not close a client given here.
     */
    public Builder httpClient(SdkHttpClient httpClient) {
      this.httpClient = requireNonNull(httpClient, "httpClient is null");
      return this;
    }

    /** Time to open a connection; default 3 s. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive("connect timeout", timeout);
      return this;
    }

    /** Longest wait for data on an open connection; default 10 s. */
    public Builder socketTimeout(Duration timeout) {
      this.socketTimeout = positive("socket timeout", timeout);
      return this;
    }

    /**
     * Longest time of one attempt of a request (the SDK's {@code apiCallAttemptTimeout}), a
     * payload's or part's upload included; default 10 s.
     */
    public Builder attemptTimeout(Duration timeout) {
      this.attemptTimeout = positive("attempt timeout", timeout);
      return this;
    }

    /**
     * Longest time of one request in all, the SDK's retries and their backoffs included (the SDK's
     * {@code apiCallTimeout}); default 20 s, so that one call to an endpoint that stops answering
     * ends with a {@link dev.fenceline.spi.StoreException} clearly within the default lease ttl of
     * 30 s. Every request is bounded by it, payload uploads and each part of a multipart upload
     * too: for large payloads on slow links raise it, and the lease ttl with it (keep it below the
     * ttl, so the worker learns of a silent endpoint while its lease still runs).
     */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = positive("call timeout", timeout);
      return this;
    }

    /**
     * Payloads of this size or larger are uploaded in parts; default {@value
     * S3Store#DEFAULT_MULTIPART_THRESHOLD} bytes. At most this many bytes are buffered to decide.
     */
    public Builder multipartThreshold(long bytes) {
      this.multipartThreshold = checkMultipartThreshold(bytes);
      return this;
    }

    /**
     * {@code bytes} if it is a multipart threshold {@link #multipartThreshold} takes.
     *
     * @throws ConfigurationException if it is not
     */
    static long checkMultipartThreshold(long bytes) {
      if (bytes < MIN_PART_SIZE || bytes > MAX_MULTIPART_THRESHOLD) {
        throw new ConfigurationException(
            "Cannot use multipart threshold "
                + bytes
                + ": it must be between "
                + MIN_PART_SIZE
                + " (5 MiB) and 2 GiB");
      }
      return bytes;
    }

    /**
     * Size of each part of a multipart upload (one part is buffered at a time); default {@value
     * S3Store#DEFAULT_PART_SIZE} bytes, at least {@value S3Store#MIN_PART_SIZE}. S3 allows 10,000
     * parts, so the part size bounds the largest payload (8 MiB parts: 78 GiB).
     */
    public Builder partSize(int bytes) {
      this.partSize = (int) checkPartSize(bytes);
      return this;
    }

    /**
     * {@code bytes} if it is a part size {@link #partSize} takes.
     *
     * @throws ConfigurationException if it is not
     */
    static long checkPartSize(long bytes) {
      if (bytes < MIN_PART_SIZE || bytes > MAX_PART_SIZE) {
        throw new ConfigurationException(
            "Cannot use part size "
                + bytes
                + ": it must be between "
                + MIN_PART_SIZE
                + " (5 MiB, S3's minimum) and 536870912 (512 MiB)");
      }
      return bytes;
    }

    /**
     * Makes this store's pointer stores refuse unsigned tokens and tokens whose signature does not
     * verify with {@code keys} ({@link dev.fenceline.spi.UntrustedTokenException}), before they
     * look at the epoch. Default: tokens are not checked (only their issuer identity is). Use the
     * keys the lease issuer signs with.
     */
    public Builder tokenKeys(TokenKeys keys) {
      this.tokenKeys = requireNonNull(keys, "keys is null");
      return this;
    }

    /**
     * Keeps a passing {@linkplain S3Store#conditionalWrites() probe} result in {@code directory}
     * (one small JSON file per endpoint, bucket and prefix, written atomically) for {@code expiry},
     * so that short-lived processes (a command run from cron) do not probe every time; see {@link
     * S3Store#conditionalWrites()} for when a cached pass counts. Default: no cache, every store
     * probes once. The {@code s3} adapter of the YAML configuration caches for 24 hours in {@code
     * $XDG_CACHE_HOME/fenceline/s3-probe} ({@code ~/.cache/...}) unless {@code probe-cache: 0}.
     *
     * @throws ConfigurationException if the expiry is not positive
     */
    public Builder probeCache(Path directory, Duration expiry) {
      this.probeCacheDirectory = requireNonNull(directory, "directory is null");
      this.probeCacheExpiry = positive("probe cache expiry", expiry);
      return this;
    }

    /**
     * Probes even if the {@linkplain #probeCache probe cache} holds a pass, and caches the new
     * result ({@code fenceline doctor --recheck}). Default: false.
     */
    public Builder recheckProbe(boolean recheck) {
      this.recheckProbe = recheck;
      return this;
    }

    /**
     * Checks that the part size is not above the multipart threshold, as {@link #build} does.
     *
     * @return this builder
     * @throws ConfigurationException if it is
     */
    Builder checkPartSizeFitsThreshold() {
      if (partSize > multipartThreshold) {
        throw new ConfigurationException(
            "Cannot use part size "
                + partSize
                + " above the multipart threshold "
                + multipartThreshold
                + " (raise the threshold or lower the part size)");
      }
      return this;
    }

    /**
     * Checks that the attempt timeout is not above the call timeout, as {@link #build} does.
     *
     * @return this builder
     * @throws ConfigurationException if it is
     */
    Builder checkAttemptWithinCall() {
      if (attemptTimeout.compareTo(callTimeout) > 0) {
        // The SDK would cut every attempt at the call timeout: the larger setting would do nothing.
        throw new ConfigurationException(
            "Cannot use attempt timeout "
                + attemptTimeout
                + " above the call timeout "
                + callTimeout
                + " (the call timeout bounds every attempt too: raise callTimeout / call-timeout"
                + " with it, and keep it below the lease ttl)");
      }
      return this;
    }

    /**
     * Builds the store and its SDK client. Nothing is sent yet.
     *
     * @throws ConfigurationException if the settings do not fit together
     */
    public S3Store build() {
      checkPartSizeFitsThreshold();
      checkAttemptWithinCall();
      S3ClientBuilder client =
          S3Client.builder()
              .forcePathStyle(pathStyle)
              .credentialsProvider(
                  new MarkedCredentials(
                      credentials != null
                          ? credentials
                          : DefaultCredentialsProvider.builder().build()))
              .overrideConfiguration(
                  c -> c.apiCallAttemptTimeout(attemptTimeout).apiCallTimeout(callTimeout));
      if (httpClient != null) {
        client.httpClient(httpClient);
      } else {
        client.httpClientBuilder(
            Apache5HttpClient.builder()
                .connectionTimeout(connectTimeout)
                .socketTimeout(socketTimeout));
      }
      String shown;
      if (endpoint != null) {
        client
            .endpointOverride(endpoint)
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .region(Region.of(Optional.ofNullable(region).orElse("us-east-1")));
        shown = Endpoints.redact(endpoint);
      } else {
        if (region != null) {
          client.region(Region.of(region));
        }
        shown = "AWS S3" + (region == null ? "" : " (" + region + ")");
      }
      return new S3Store(this, client.build(), shown);
    }

    private static Duration positive(String what, Duration timeout) {
      requireNonNull(timeout, what + " is null");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new ConfigurationException(
            "Cannot use " + what + " " + timeout + ": it must be positive (e.g. 30s)");
      }
      return timeout;
    }
  }
}
