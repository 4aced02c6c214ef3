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
package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * How a destination reaches its API, the settings both HTTP destinations share: name, base URI,
 * idempotency key header, bearer token, HTTP client, attempt and call time limits, retries,
 * backoff, circuit breaker and the bound of an answer's body. One immutable value built by one
 * validating {@link Builder}, to which the public builders of {@link HttpApiDestination} and {@link
 * NativeHttpDestination} delegate through their shared base {@link EndpointBuilder}: each setting
 * is checked once and has one default, stated here. The two destinations differ only in what they
 * call themselves in messages ({@link Kind}).
 */
final class EndpointSettings {

  /** The default idempotency key header, as in the IETF httpapi draft. */
  static final String DEFAULT_IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

  /**
   * The default time limit of one attempt: 3 s, for both destinations (until 7290d3c it was 30 s in
   * the intent mode and 10 s in the native mode): three attempts and their backoffs, then a lookup
   * of as many, end within the default lease ttl of 30 s.
   */
  static final Duration DEFAULT_ATTEMPT_TIME_LIMIT = Duration.ofSeconds(3);

  /** The default bound of a response body that is read: 1 MiB. */
  static final int DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

  /**
   * What a destination calls itself in the messages of {@code build()}, the one thing the two
   * destinations set differently here, so that a message names the builder the caller used.
   *
   * @param unnamed with an article, for a destination without a name yet
   * @param named before the name
   */
  record Kind(String unnamed, String named) {
    static final Kind INTENT = new Kind("an HTTP API destination", "HTTP API destination");
    static final Kind NATIVE = new Kind("a native HTTP destination", "native HTTP destination");
  }

  private final String name;
  private final URI baseUri;
  private final String idempotencyKeyHeader;
  private final Optional<BearerToken> bearer;
  private final Duration attemptTimeLimit;
  private final int maxAttempts;
  private final ApiCalls calls;

  private EndpointSettings(Builder builder, BearerToken bearer) {
    this.name = builder.name;
    this.baseUri = builder.baseUri;
    this.idempotencyKeyHeader = builder.idempotencyKeyHeader;
    this.bearer = Optional.ofNullable(bearer);
    this.attemptTimeLimit = builder.attemptTimeLimit;
    this.maxAttempts = builder.resilience.maxAttempts();
    HttpClient client =
        builder.httpClient != null
            ? builder.httpClient
            : ResilienceSettings.defaultClient(builder.attemptTimeLimit);
    this.calls =
        new ApiCalls(
            client,
            baseUri,
            idempotencyKeyHeader,
            bearer,
            attemptTimeLimit,
            builder.resilience.callTimeLimit(),
            builder.nanoTime,
            builder.resilience.retryConfig(),
            builder.resilience.breaker(name),
            builder.maxResponseBytes,
            name);
  }

  /** The destination's name. */
  String name() {
    return name;
  }

  /** The API's base URI. */
  URI baseUri() {
    return baseUri;
  }

  /** The header that carries the idempotency key. */
  String idempotencyKeyHeader() {
    return idempotencyKeyHeader;
  }

  /** The bearer token, read from the environment when this was built; empty for none. */
  Optional<BearerToken> bearer() {
    return bearer;
  }

  /** The time limit of one attempt. */
  Duration attemptTimeLimit() {
    return attemptTimeLimit;
  }

  /** Attempts per request, the first included. */
  int maxAttempts() {
    return maxAttempts;
  }

  /** The sender every request of the destination goes through. */
  ApiCalls calls() {
    return calls;
  }

  /** {@code path} (relative, starting with /) under the base URI. */
  URI resolve(String path) {
    return ApiRequest.resolve(baseUri, path);
  }

  /**
   * The validating builder: each setter checks its value and throws a {@link
   * ConfigurationException} naming it and the fix, with the YAML key of the http destination
   * ({@link HttpConfigKeys}) where YAML offers the setting. Not thread-safe.
   */
  static final class Builder {
    private final Kind kind;
    private String name;
    private URI baseUri;
    private String idempotencyKeyHeader = DEFAULT_IDEMPOTENCY_KEY_HEADER;
    private String bearerVariable;
    private Function<String, String> environment = System::getenv;
    private HttpClient httpClient;
    private Duration attemptTimeLimit = DEFAULT_ATTEMPT_TIME_LIMIT;
    private final ResilienceSettings resilience = new ResilienceSettings();
    private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
    private LongSupplier nanoTime = System::nanoTime;

    Builder(Kind kind) {
      this.kind = requireNonNull(kind, "kind is null");
    }

    /** The destination's name ({@link Destination#NAME}); no YAML key (it is the entry's name). */
    void name(String name) {
      requireNonNull(name, "name is null");
      try {
        this.name = Destination.validateName(name);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(e.getMessage(), e);
      }
    }

    /**
     * The API's base URI: {@code http} or {@code https} in any case (schemes are case-insensitive,
     * RFC 3986), with a host and no query, fragment or user information. Required.
     */
    void baseUri(URI baseUri) {
      requireNonNull(baseUri, "baseUri is null");
      String scheme =
          baseUri.getScheme() == null ? "" : baseUri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https"))
          || baseUri.getHost() == null
          || baseUri.getRawQuery() != null
          || baseUri.getRawFragment() != null) {
        throw ConfigurationException.about(
            HttpConfigKeys.BASE_URI,
            "Cannot use API base URI "
                + ApiRequest.quote(redact(baseUri))
                + ": give an absolute http or https URI with a host and no query or fragment (e.g."
                + " https://api.example.com/v1)");
      }
      if (baseUri.getRawUserInfo() != null) {
        throw ConfigurationException.about(
            HttpConfigKeys.BASE_URI,
            "Cannot use API base URI "
                + ApiRequest.quote(redact(baseUri))
                + ": it carries user information; give the token with bearerTokenFromEnv, never"
                + " in the URL");
      }
      this.baseUri = baseUri;
    }

    /** The idempotency key header; default {@value #DEFAULT_IDEMPOTENCY_KEY_HEADER}. */
    void idempotencyKeyHeader(String header) {
      this.idempotencyKeyHeader =
          HeaderNames.check(
              HttpConfigKeys.IDEMPOTENCY_KEY_HEADER,
              "idempotency key header",
              header,
              DEFAULT_IDEMPOTENCY_KEY_HEADER);
    }

    /** The environment variable the bearer token is read from at {@link #build}; default none. */
    void bearerTokenFromEnv(String variable) {
      this.bearerVariable = BearerToken.checkVariable(variable);
    }

    /** Where variables are read; default {@link System#getenv(String)}. */
    void environment(Function<String, String> environment) {
      this.environment = requireNonNull(environment, "environment is null");
    }

    /** The HTTP client; default {@link ResilienceSettings#defaultClient}. */
    void httpClient(HttpClient client) {
      this.httpClient = requireNonNull(client, "client is null");
    }

    /** The time limit of one attempt; default {@link #DEFAULT_ATTEMPT_TIME_LIMIT}. */
    void attemptTimeLimit(Duration limit) {
      requireNonNull(limit, "limit is null");
      if (limit.isNegative() || limit.isZero()) {
        throw ConfigurationException.about(
            HttpConfigKeys.ATTEMPT_TIME_LIMIT,
            "Cannot use attempt time limit "
                + limit
                + ": it must be positive (e.g. Duration.ofSeconds(10))");
      }
      this.attemptTimeLimit = limit;
    }

    /** See {@link ResilienceSettings#callTimeLimit(Duration)}. */
    void callTimeLimit(Duration limit) {
      resilience.callTimeLimit(limit);
    }

    /** See {@link ResilienceSettings#maxAttempts(int)}. */
    void maxAttempts(int maxAttempts) {
      resilience.maxAttempts(maxAttempts);
    }

    /** See {@link ResilienceSettings#backoff}. */
    void backoff(Duration initial, double multiplier, Duration max) {
      resilience.backoff(initial, multiplier, max);
    }

    /** See {@link ResilienceSettings#jitter}. */
    void jitter(double jitter) {
      resilience.jitter(jitter);
    }

    /** See {@link ResilienceSettings#circuitBreaker(CircuitBreakerConfig)}. */
    void circuitBreaker(CircuitBreakerConfig config) {
      resilience.circuitBreaker(config);
    }

    /** See {@link ResilienceSettings#circuitBreaker(CircuitBreaker)}. */
    void circuitBreaker(CircuitBreaker breaker) {
      resilience.circuitBreaker(breaker);
    }

    /**
     * How much of a response body is read, 1 KiB to 64 MiB; default {@link
     * #DEFAULT_MAX_RESPONSE_BYTES}. No YAML key.
     */
    void maxResponseBytes(int bytes) {
      if (bytes < 1024 || bytes > 64 * 1024 * 1024) {
        throw new ConfigurationException(
            "Cannot use max response bytes "
                + bytes
                + ": expected 1024 to 67108864 (receipts need a few fields, not whole documents)");
      }
      this.maxResponseBytes = bytes;
    }

    /** The monotonic time source in nanoseconds; default {@link System#nanoTime()}; tests only. */
    void nanoTime(LongSupplier nanoTime) {
      this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    }

    /** The name given so far, or null. */
    String name() {
      return name;
    }

    /** The idempotency key header given so far, or the default. */
    String idempotencyKeyHeader() {
      return idempotencyKeyHeader;
    }

    /** The attempts per request given so far, or the default. */
    int maxAttempts() {
      return resilience.maxAttempts();
    }

    /** The attempt time limit given so far, or the default. */
    Duration attemptTimeLimit() {
      return attemptTimeLimit;
    }

    /** See {@link ResilienceSettings#longestRetrying}, with the attempt time limit given so far. */
    Duration longestRetrying() {
      return resilience.longestRetrying(attemptTimeLimit);
    }

    /** The monotonic time source. */
    LongSupplier nanoTime() {
      return nanoTime;
    }

    /** {@code "<kind> <name>"}, the subject of a {@code build()} message; after {@link #check}. */
    String subject() {
      return kind.named() + " " + name;
    }

    /**
     * Checks what is required of every destination, the first checks of {@code build()}.
     *
     * @throws ConfigurationException if the name or base URI is missing
     */
    void check() {
      if (name == null) {
        throw new ConfigurationException(
            "Cannot build " + kind.unnamed() + ": no name is set (call name(\"payments\"))");
      }
      if (baseUri == null) {
        throw ConfigurationException.about(
            HttpConfigKeys.BASE_URI,
            "Cannot build "
                + subject()
                + ": no base URI is set (call baseUri(URI.create(\"https://api.example.com\")))");
      }
    }

    /**
     * The settings; reads the bearer token from the environment now, after the destination's own
     * checks.
     *
     * @throws ConfigurationException as {@link #check}, or if the token variable is unset or holds
     *     a value that cannot be sent
     */
    EndpointSettings build() {
      check();
      BearerToken bearer =
          bearerVariable == null ? null : BearerToken.fromEnvironment(bearerVariable, environment);
      return new EndpointSettings(this, bearer);
    }

    private static String redact(URI uri) {
      return uri.getRawUserInfo() == null
          ? uri.toString()
          : uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
    }
  }
}
