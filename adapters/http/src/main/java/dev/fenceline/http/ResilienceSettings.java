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
 * place. Each setter throws a {@link ConfigurationException} naming the value and the fix. Not
 * thread-safe (a builder's state).
 */
final class ResilienceSettings {

  private int maxAttempts = 3;
  private Duration initialBackoff = Duration.ofMillis(500);

  /** The default longest wait between two attempts. */
  static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(2);

  private Duration maxBackoff = DEFAULT_MAX_BACKOFF;
  private double backoffMultiplier = 2.0;
  private double jitter = 0.5;
  private CircuitBreaker circuitBreaker;
  private CircuitBreakerConfig circuitBreakerConfig;

  /** Attempts per request, the first included, 1 to 20; default 3. */
  void maxAttempts(int maxAttempts) {
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw new ConfigurationException(
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
    Duration first = positive("initial backoff", initial);
    Duration last = positive("max backoff", max);
    if (!(multiplier >= 1.0) || multiplier > 10.0) {
      throw new ConfigurationException(
          "Cannot use backoff multiplier " + multiplier + ": expected 1.0 to 10.0 (e.g. 2.0)");
    }
    if (last.compareTo(first) < 0) {
      throw new ConfigurationException(
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

  private static Duration positive(String what, Duration value) {
    requireNonNull(value, what + " is null");
    if (value.isNegative() || value.isZero()) {
      throw new ConfigurationException(
          "Cannot use " + what + " " + value + ": expected a positive duration (e.g. PT10S)");
    }
    return value;
  }
}
