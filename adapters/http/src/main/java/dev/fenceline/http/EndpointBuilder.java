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

import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.StoreException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Function;

/**
 * The setters both HTTP destination builders share, {@link HttpApiDestination.Builder} and {@link
 * NativeHttpDestination.Builder}: how a destination reaches its API (name, base URI, idempotency
 * key header, bearer token, HTTP client, attempt and call time limits, backoff, circuit breaker).
 * Each setter validates its value the same way for both and throws a {@link ConfigurationException}
 * naming the value and the fix, carrying the YAML key of the http destination ({@link
 * ConfigurationException#key()}) where YAML offers the setting; each returns the builder it was
 * called on, so calls chain across the shared and the destination's own setters. Not thread-safe.
 *
 * @param <B> the destination's builder, which every setter returns
 */
public abstract sealed class EndpointBuilder<B extends EndpointBuilder<B>>
    permits HttpApiDestination.Builder, NativeHttpDestination.Builder {

  /** The shared settings, validated and defaulted in one place; the subclasses build from them. */
  final EndpointSettings.Builder endpoint;

  EndpointBuilder(EndpointSettings.Kind kind) {
    this.endpoint = new EndpointSettings.Builder(kind);
  }

  /** This builder as its own type, what every setter returns. */
  abstract B self();

  /**
   * The destination's name ({@link Destination#NAME}), required; it scopes the idempotency keys
   * ({@link IdempotencyKeys#of}). An {@link HttpApiDestination}'s intent store must have the same
   * name.
   */
  public B name(String name) {
    endpoint.name(name);
    return self();
  }

  /**
   * The API's base URI, required: {@code http} or {@code https} with a host and no query, fragment
   * or user information (credentials); request paths are appended to it.
   */
  public B baseUri(URI baseUri) {
    endpoint.baseUri(baseUri);
    return self();
  }

  /**
   * The header that carries the idempotency key; default {@value
   * HttpApiDestination#DEFAULT_IDEMPOTENCY_KEY_HEADER}.
   */
  public B idempotencyKeyHeader(String header) {
    endpoint.idempotencyKeyHeader(header);
    return self();
  }

  /**
   * Sends {@code Authorization: Bearer <token>} with the token read from environment variable
   * {@code variable} when the destination is built. The value is never shown anywhere.
   */
  public B bearerTokenFromEnv(String variable) {
    endpoint.bearerTokenFromEnv(variable);
    return self();
  }

  /** Where {@link #bearerTokenFromEnv} reads variables; default {@link System#getenv(String)}. */
  public B environment(Function<String, String> environment) {
    endpoint.environment(environment);
    return self();
  }

  /**
   * The HTTP client to send with (e.g. with a proxy or TLS settings); by default one that never
   * follows redirects, with a {@linkplain HttpApiDestination#DEFAULT_CONNECT_TIMEOUT 2 s} connect
   * timeout, or the {@linkplain #attemptTimeLimit attempt time limit} if that is shorter.
   */
  public B httpClient(HttpClient client) {
    endpoint.httpClient(client);
    return self();
  }

  /**
   * The time limit of <em>one attempt</em>, the whole exchange up to the last byte of the (bounded)
   * answer, not of the whole write (that is the {@link #callTimeLimit}). Default 3 s; the default
   * client's connect timeout is 2 s, or this limit if it is shorter. A large file upload or an API
   * that answers slower than this needs a longer limit, and then a longer call time limit and lease
   * ttl too. An {@link HttpApiDestination} still records a 2xx whose body is cut off by the limit
   * as applied.
   */
  public B attemptTimeLimit(Duration limit) {
    endpoint.attemptTimeLimit(limit);
    return self();
  }

  /**
   * The overall bound of one write: its sends, the backoffs between them and its lookups share it.
   * Each attempt and lookup gets at most what is left; once it has passed nothing more is sent, and
   * the outcome is unknown if an attempt may have reached the API ({@link
   * ApiOutcomeUnknownException} from an {@link HttpApiDestination}, a {@link StoreException} whose
   * {@link StoreException#outcomeUnknown()} is true from a {@link NativeHttpDestination}). Default
   * 20 s ({@link HttpApiDestination#DEFAULT_CALL_TIME_LIMIT}): keep it below the lease ttl, so that
   * a worker learns of an API that stopped answering while its lease still runs. An intent store's
   * own calls are bounded by that store, not by this limit.
   */
  public B callTimeLimit(Duration limit) {
    endpoint.callTimeLimit(limit);
    return self();
  }

  /**
   * Exponential backoff between attempts: {@code initial}, times {@code multiplier} (at least 1)
   * per retry, at most {@code max}; defaults 500 ms, 2.0, 2 s.
   */
  public B backoff(Duration initial, double multiplier, Duration max) {
    endpoint.backoff(initial, multiplier, max);
    return self();
  }

  /**
   * The randomization factor of the backoff, in [0, 1): each wait is drawn from interval × (1 ±
   * jitter), so that workers retrying together spread out. Default 0.5.
   */
  public B jitter(double jitter) {
    endpoint.jitter(jitter);
    return self();
  }

  /**
   * A circuit breaker built from {@code config}'s thresholds and windows. Fenceline reports IO
   * failures and 5xx answers as errors and everything else as successes; the config's record and
   * ignore predicates still filter them. By default: 50% failures over the last 10 calls (at least
   * 5), open for 30 s.
   */
  public B circuitBreaker(CircuitBreakerConfig config) {
    endpoint.circuitBreaker(config);
    return self();
  }

  /** An existing circuit breaker (e.g. from a registry, shared), reported to as above. */
  public B circuitBreaker(CircuitBreaker breaker) {
    endpoint.circuitBreaker(breaker);
    return self();
  }
}
