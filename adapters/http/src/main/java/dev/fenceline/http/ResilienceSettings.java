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
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

/**
 * The retry and circuit-breaker settings both HTTP destination builders offer under the same names
 * ({@code maxAttempts}, {@code backoff}, {@code jitter}, {@code circuitBreaker}), validated in one
 * place, and the defaults both builders and the YAML configuration share. Each setter throws a
 * {@link ConfigurationException} naming the value and the fix. Not thread-safe (a builder's state).
 */
public final class ResilienceSettings {

  /** The default attempts per request, the first included: 3. */
  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  /** The default wait before the first retry: 500 ms. */
  public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(500);

  /** The default factor of the wait per retry: 2.0. */
  public static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;

  /** The default longest wait between two attempts: 2 s. */
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(2);

  /**
   * The default overall bound of one call: 20 s. A write's sends, backoffs and lookups (the lookup
   * before a send, before every re-send and after a lost answer) all share it, so a write to an API
   * that is frozen or silent ends within it, inside the default lease ttl of 30 s; once it has
   * passed, nothing more is sent and the outcome is in doubt if an attempt may have reached the
   * API. The intent store's own calls are bounded by that store.
   */
  public static final Duration DEFAULT_CALL_TIME_LIMIT = Duration.ofSeconds(20);

  /** The longest connect timeout of a default HTTP client: 2 s. */
  public static final Duration LONGEST_DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);

  private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
  private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;
  private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
  private double backoffMultiplier = DEFAULT_BACKOFF_MULTIPLIER;
  private Duration callTimeLimit = DEFAULT_CALL_TIME_LIMIT;
  private double jitter = 0.5;
  private CircuitBreaker circuitBreaker;
  private CircuitBreakerConfig circuitBreakerConfig;

  /** The defaults; a builder's own (the settings are changed through the builders only). */
  ResilienceSettings() {}

  /**
   * The connect timeout of a default HTTP client for {@code attemptTimeLimit}: the attempt time
   * limit, at most {@link #LONGEST_DEFAULT_CONNECT_TIMEOUT}. Never longer than an attempt, so a
   * connection that never opened ends as a connect timeout (the request never reached the API), not
   * as an attempt timeout (which may have reached it and costs a lookup or an in-doubt outcome).
   */
  public static Duration defaultConnectTimeout(Duration attemptTimeLimit) {
    requireNonNull(attemptTimeLimit, "attemptTimeLimit is null");
    return attemptTimeLimit.compareTo(LONGEST_DEFAULT_CONNECT_TIMEOUT) < 0
        ? attemptTimeLimit
        : LONGEST_DEFAULT_CONNECT_TIMEOUT;
  }

  /** The default HTTP client of a destination: {@link #defaultConnectTimeout}, no redirects. */
  static java.net.http.HttpClient defaultClient(Duration attemptTimeLimit) {
    return java.net.http.HttpClient.newBuilder()
        .connectTimeout(defaultConnectTimeout(attemptTimeLimit))
        .followRedirects(java.net.http.HttpClient.Redirect.NEVER)
        .build();
  }

  /** The overall bound of one call, attempts, backoffs and lookups included; default 20 s. */
  void callTimeLimit(Duration limit) {
    // No YAML key: the call time limit is a builder setting only.
    this.callTimeLimit = positive(null, "call time limit", limit);
  }

  /** The overall bound of one call. */
  Duration callTimeLimit() {
    return callTimeLimit;
  }

  /** Attempts per request, the first included, 1 to 20; default 3. */
  void maxAttempts(int maxAttempts) {
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw ConfigurationException.about(
          HttpConfigKeys.MAX_ATTEMPTS,
          "Cannot use max attempts "
              + maxAttempts
              + ": expected 1 to 20 (1 = no retry; every retry reuses the idempotency key)");
    }
    this.maxAttempts = maxAttempts;
  }

  /** The attempts per request, the first included. */
  int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Exponential backoff: {@code initial}, times {@code multiplier} per retry, at most {@code max}.
   */
  void backoff(Duration initial, double multiplier, Duration max) {
    Duration first = positive(HttpConfigKeys.BACKOFF_INITIAL, "initial backoff", initial);
    Duration last = positive(HttpConfigKeys.BACKOFF_MAX, "max backoff", max);
    if (!(multiplier >= 1.0) || multiplier > 10.0) {
      throw ConfigurationException.about(
          HttpConfigKeys.BACKOFF_MULTIPLIER,
          "Cannot use backoff multiplier " + multiplier + ": expected 1.0 to 10.0 (e.g. 2.0)");
    }
    if (last.compareTo(first) < 0) {
      throw ConfigurationException.about(
          HttpConfigKeys.BACKOFF_MAX,
          "Cannot use max backoff "
              + last
              + ": it is shorter than the initial backoff "
              + first
              + " (raise the max or lower the initial backoff)");
    }
    this.initialBackoff = first;
    this.backoffMultiplier = multiplier;
    this.maxBackoff = last;
  }

  /** The randomization factor of the backoff, in [0, 1); default 0.5. */
  void jitter(double jitter) {
    if (!(jitter >= 0.0) || jitter >= 1.0) {
      // No YAML key: jitter is a builder setting only.
      throw new ConfigurationException(
          "Cannot use backoff jitter " + jitter + ": expected at least 0 and below 1 (e.g. 0.5)");
    }
    this.jitter = jitter;
  }

  /** A circuit breaker built from {@code config} (replaces an existing breaker). */
  void circuitBreaker(CircuitBreakerConfig config) {
    this.circuitBreakerConfig = requireNonNull(config, "config is null");
    this.circuitBreaker = null;
  }

  /** An existing circuit breaker (replaces a config). */
  void circuitBreaker(CircuitBreaker breaker) {
    this.circuitBreaker = requireNonNull(breaker, "breaker is null");
    this.circuitBreakerConfig = null;
  }

  /**
   * The longest one send can take with retries: max attempts × ({@code attemptTimeLimit} + max
   * backoff). Resilience4j caps each randomized wait at the max backoff.
   */
  Duration longestRetrying(Duration attemptTimeLimit) {
    return attemptTimeLimit.plus(maxBackoff).multipliedBy(maxAttempts);
  }

  /** The retry: the attempts and the exponential random backoff; what is retried is per call. */
  RetryConfig retryConfig() {
    return RetryConfig.custom()
        .maxAttempts(maxAttempts)
        .intervalFunction(
            IntervalFunction.ofExponentialRandomBackoff(
                initialBackoff, backoffMultiplier, jitter, maxBackoff))
        .build();
  }

  /**
   * The given breaker, or one named {@code name} from the given config; by default 50% failures
   * over the last 10 calls (at least 5), open for 30 s.
   */
  CircuitBreaker breaker(String name) {
    if (circuitBreaker != null) {
      return circuitBreaker;
    }
    return CircuitBreaker.of(
        name,
        circuitBreakerConfig != null
            ? circuitBreakerConfig
            : CircuitBreakerConfig.custom()
                .failureRateThreshold(50)
                .slidingWindowSize(10)
                .minimumNumberOfCalls(5)
                .waitDurationInOpenState(Duration.ofSeconds(30))
                .build());
  }

  /**
   * Checks a duration setting.
   *
   * @param key the YAML key of the setting, or null if YAML does not offer it
   */
  static Duration positive(String key, String what, Duration value) {
    requireNonNull(value, what + " is null");
    if (value.isNegative() || value.isZero()) {
      throw HttpConfigKeys.refusal(
          key,
          "Cannot use " + what + " " + value + ": expected a positive duration (e.g. PT10S)",
          null);
    }
    return value;
  }
}
