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

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * The one place that talks HTTP for both modes: it adds the credentials ({@link BearerToken}) and
 * the idempotency key, runs every attempt within a time limit that covers the whole exchange (the
 * response headers <em>and</em> the bounded body), retries through Resilience4j's {@link Retry} and
 * {@link CircuitBreaker}, keeps at most {@code maxResponseBytes} of any body, and reports precisely
 * enough for the caller to tell "never reached the API" from "may have landed". It decides nothing
 * about intents or epochs: what is worth another attempt is the caller's {@link Predicate} per
 * call, and whether an attempt may still go out is the caller's {@link BeforeAttempt}. A file body
 * is checked before every attempt ({@link ApiRequest#checkBodyUnchanged}). Thread-safe.
 */
final class ApiCalls {

  /** Statuses worth another attempt under the same key: 409 = the same key is still processing. */
  static final Set<Integer> RETRYABLE_STATUSES = Set.of(409, 429, 500, 502, 503, 504);

  /** {@link #RETRYABLE_STATUSES} as a per-call predicate. */
  static final Predicate<Response> RETRYABLE =
      response -> RETRYABLE_STATUSES.contains(response.status());

  private static final System.Logger LOG = System.getLogger(ApiCalls.class.getName());

  /**
   * An answer of the API: its status line and headers arrived, so it is a definite answer.
   *
   * @param body at most {@code maxResponseBytes} of the body, possibly less if it was cut off
   * @param truncated true if the body was longer than the bound (the rest was never read)
   * @param bodyError why the body is incomplete although it was not too long (the attempt's time
   *     limit passed or the connection broke while it was read); empty if it is complete
   */
  record Response(
      int status, HttpHeaders headers, byte[] body, boolean truncated, Optional<String> bodyError) {
    Response {
      requireNonNull(headers, "headers is null");
      requireNonNull(body, "body is null");
      requireNonNull(bodyError, "bodyError is null");
    }

    boolean successful() {
      return status >= 200 && status < 300;
    }

    /** The first value of header {@code name} (case-insensitive). */
    Optional<String> header(String name) {
      return headers.firstValue(name);
    }
  }

  /**
   * What all attempts of one send came to.
   *
   * @param response the last answer, or null if the last attempt got none
   * @param failure the last attempt's failure (an {@link IOException}, an {@link
   *     HttpTimeoutException} when the time limit passed before an answer, {@link
   *     CallNotPermittedException} or an interruption), or null if it got an answer
   * @param mayHaveReached true if any attempt may have reached the API (it answered, or the
   *     connection broke after it was open); false only if every attempt failed to connect or was
   *     refused by the breaker
   * @param lostBeforeLast true if an attempt before the last one may have landed without an answer
   *     (lost answer or retryable answer)
   * @param attempts how many attempts were made or refused
   */
  record SendReport(
      Response response,
      Throwable failure,
      boolean mayHaveReached,
      boolean lostBeforeLast,
      int attempts) {}

  /**
   * Asked before each attempt of a send, before any byte of it goes out: the caller's last chance
   * to stop sending (for example because its operation was completed or taken over meanwhile).
   */
  @FunctionalInterface
  interface BeforeAttempt {
    /** Lets every attempt go out. */
    BeforeAttempt NONE = (attempt, mayHaveReached) -> {};

    /**
     * @param attempt the attempt about to start, 1 for the first
     * @param mayHaveReached true if an earlier attempt of this send may have reached the API
     * @throws RuntimeException to send nothing more: it propagates out of {@link ApiCalls#send}
     *     unchanged
     */
    void check(int attempt, boolean mayHaveReached);
  }

  /** The answer of a result lookup. */
  sealed interface LookupResult permits Found, NotFound, Unavailable {}

  /** The API knows the operation; {@code record} is what the lookup selected. */
  record Found(JsonNode record) implements LookupResult {}

  /** The API says it never saw the key: a 404, or a 200 with an empty answer or record. */
  record NotFound(int status) implements LookupResult {}

  /** The lookup gave no definite answer. */
  record Unavailable(String reason, Throwable cause) implements LookupResult {}

  /**
   * A lookup request.
   *
   * @param pathTemplate a path and query under the base URI with {@code {key}}, {@code {resource}}
   *     and {@code {operation}} placeholders, filled in URL-encoded
   * @param recordPointer selects the record in a 200 answer (empty: the whole answer); missing,
   *     null or an empty array or object = not found
   * @param keyPointer if present, where the record holds the idempotency key it was sent with: a
   *     record with another value there proves that the lookup does not filter by key
   */
  record LookupRequest(
      String pathTemplate, Optional<JsonPointer> recordPointer, Optional<JsonPointer> keyPointer) {
    LookupRequest {
      requireNonNull(pathTemplate, "pathTemplate is null");
      requireNonNull(recordPointer, "recordPointer is null");
      requireNonNull(keyPointer, "keyPointer is null");
    }

    String path(String key, ResourceId resource, OperationId operation) {
      return pathTemplate
          .replace("{key}", encode(key))
          .replace("{resource}", encode(resource.value()))
          .replace("{operation}", encode(operation.value()));
    }

    private static String encode(String value) {
      return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
  }

  /**
   * The overall deadline of one call (a write with its sends, backoffs and lookups, or a read):
   * every attempt gets at most what is left of it, every backoff ends at it, and once it has passed
   * no further attempt starts ({@link CallTimeLimitPassed}). Not thread-safe; one per call.
   */
  static final class Deadline {
    private final Duration limit;
    private final long end;
    private final LongSupplier nanoTime;

    Deadline(Duration limit, LongSupplier nanoTime) {
      this.limit = requireNonNull(limit, "limit is null");
      this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
      this.end = nanoTime.getAsLong() + limit.toNanos();
    }

    /** The call time limit this deadline was set from. */
    Duration limit() {
      return limit;
    }

    /** What is left, zero once the deadline has passed. */
    Duration remaining() {
      return Duration.ofNanos(Math.max(0, end - nanoTime.getAsLong()));
    }

    boolean passed() {
      return end - nanoTime.getAsLong() <= 0;
    }
  }

  /**
   * The call's overall time limit passed before an attempt could start: the attempt was not sent.
   * Whether an earlier attempt of the call may have reached the API is in the {@link SendReport}.
   */
  static final class CallTimeLimitPassed extends HttpTimeoutException {
    private static final long serialVersionUID = 1L;

    CallTimeLimitPassed(Duration limit) {
      super(
          "the call time limit of "
              + limit
              + " passed, so no further attempt was sent (raise callTimeLimit, a builder setting,"
              + " together with the lease ttl, or lower attemptTimeLimit or maxAttempts)");
    }
  }

  /** Thrown inside an attempt for a retryable answer, so that Resilience4j retries it. */
  private static final class RetryableAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Response response;

    RetryableAnswer(Response response) {
      super("HTTP " + response.status(), null, false, false);
      this.response = response;
    }
  }

  /** Reported to the circuit breaker for a 5xx answer. */
  private static final class ServerError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ServerError(int status) {
      super("HTTP " + status, null, false, false);
    }
  }

  /** Per-send bookkeeping of what the attempts did. */
  private static final class Attempts {
    int count;
    boolean reached;
    boolean lost;
    boolean lostBeforeLast;

    void begin() {
      count++;
      lostBeforeLast = lostBeforeLast || lost;
      lost = false;
    }
  }

  private final HttpClient client;
  private final URI baseUri;
  private final String keyHeader;
  private final BearerToken bearer;
  private final Duration attemptTimeout;
  private final Duration callTimeLimit;
  private final LongSupplier nanoTime;
  private final RetryConfig retryConfig;
  private final RetryConfig onceConfig;
  private final String name;
  private final CircuitBreaker breaker;
  private final int maxResponseBytes;

  /**
   * @param keyHeader the idempotency key header
   * @param bearer the token sent as {@code Authorization: Bearer}, or null for none
   * @param attemptTimeout the time limit of one attempt, headers and body included
   * @param callTimeLimit the overall bound of one call ({@link #deadline()}), attempts, backoffs
   *     and lookups included
   * @param retryConfig attempts and backoff; what is retried is decided here and per call
   */
  ApiCalls(
      HttpClient client,
      URI baseUri,
      String keyHeader,
      BearerToken bearer,
      Duration attemptTimeout,
      Duration callTimeLimit,
      LongSupplier nanoTime,
      RetryConfig retryConfig,
      CircuitBreaker breaker,
      int maxResponseBytes,
      String name) {
    this.client = requireNonNull(client, "client is null");
    this.baseUri = requireNonNull(baseUri, "baseUri is null");
    this.keyHeader = requireNonNull(keyHeader, "keyHeader is null");
    this.bearer = bearer;
    this.attemptTimeout = requireNonNull(attemptTimeout, "attemptTimeout is null");
    this.callTimeLimit = requireNonNull(callTimeLimit, "callTimeLimit is null");
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.name = requireNonNull(name, "name is null");
    // A passed call time limit is final: no retry, no backoff.
    this.retryConfig =
        RetryConfig.from(retryConfig)
            .retryOnException(
                e ->
                    (e instanceof IOException && !(e instanceof CallTimeLimitPassed))
                        || e instanceof RetryableAnswer)
            .build();
    this.onceConfig = RetryConfig.from(this.retryConfig).maxAttempts(1).build();
    this.breaker = requireNonNull(breaker, "breaker is null");
    if (maxResponseBytes < 1) {
      throw new IllegalArgumentException("maxResponseBytes must be positive: " + maxResponseBytes);
    }
    this.maxResponseBytes = maxResponseBytes;
  }

  /** The circuit breaker every request goes through. */
  CircuitBreaker breaker() {
    return breaker;
  }

  /** The time limit of one attempt. */
  Duration attemptTimeout() {
    return attemptTimeout;
  }

  /**
   * Sends {@code request} under {@code key}, retrying lost answers and {@link #RETRYABLE}, asking
   * {@code before} before every attempt.
   */
  SendReport send(String key, ApiRequest request, BeforeAttempt before, Deadline deadline) {
    return send(key, request, Map.of(), RETRYABLE, true, before, deadline);
  }

  /** A new deadline of one call: the call time limit from now. */
  Deadline deadline() {
    return new Deadline(callTimeLimit, nanoTime);
  }

  /**
   * Sends {@code request} under {@code key} with {@code extraHeaders} besides the request's own.
   *
   * @param retryable which answers are worth another attempt under the same key
   * @param retry false for one attempt only (the API would not recognise a repeat)
   * @param before asked before every attempt; what it throws propagates
   * @param deadline the call's overall deadline, shared with its other sends and lookups
   * @return the report; its failure is an {@link ApiRequest.BodyChangedException} if a file body
   *     changed or is gone, and then no byte of the refused attempt was sent
   */
  SendReport send(
      String key,
      ApiRequest request,
      Map<String, String> extraHeaders,
      Predicate<Response> retryable,
      boolean retry,
      BeforeAttempt before,
      Deadline deadline) {
    requireNonNull(before, "before is null");
    requireNonNull(deadline, "deadline is null");
    HttpRequest.BodyPublisher publisher;
    try {
      publisher = request.publisher();
    } catch (ApiRequest.BodyChangedException gone) {
      return new SendReport(null, gone, false, false, 0);
    }
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(request.resolve(baseUri))
            .header("Content-Type", request.contentType())
            .method(request.method(), publisher);
    request.headers().forEach(builder::header);
    extraHeaders.forEach(builder::header);
    builder.header(keyHeader, key);
    BeforeAttempt checked =
        (attempt, mayHaveReached) -> {
          before.check(attempt, mayHaveReached);
          // The file is streamed again on every attempt; its fingerprint was taken only once.
          request.checkBodyUnchanged();
        };
    return exchange(builder, retryable, retry, checked, deadline);
  }

  /**
   * Sends a request without a body and without an idempotency key (register, reads), with the
   * credentials and the same time limit, breaker and bound.
   *
   * @param retry false for one attempt only: without a key, a retried change is not recognised
   */
  SendReport call(
      String method,
      URI uri,
      Map<String, String> headers,
      Predicate<Response> retryable,
      boolean retry) {
    return call(method, uri, headers, retryable, retry, deadline());
  }

  /** As {@link #call(String, URI, Map, Predicate, boolean)} within {@code deadline}. */
  SendReport call(
      String method,
      URI uri,
      Map<String, String> headers,
      Predicate<Response> retryable,
      boolean retry,
      Deadline deadline) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
    headers.forEach(builder::header);
    return exchange(builder, retryable, retry, BeforeAttempt.NONE, deadline);
  }

  private SendReport exchange(
      HttpRequest.Builder builder,
      Predicate<Response> retryable,
      boolean retried,
      BeforeAttempt before,
      Deadline deadline) {
    // The client's own timeout ends a wait for headers early; the attempt's limit covers the rest.
    builder.timeout(attemptTimeout);
    if (bearer != null) {
      builder.header("Authorization", bearer.headerValue());
    }
    HttpRequest http = builder.build();
    Attempts attempts = new Attempts();
    Retry retry = retry(retried, deadline);
    try {
      Response response =
          retry.executeCheckedSupplier(() -> attempt(http, retryable, attempts, before, deadline));
      return new SendReport(response, null, true, attempts.lostBeforeLast, attempts.count);
    } catch (RetryableAnswer exhausted) {
      return new SendReport(
          exhausted.response, null, true, attempts.lostBeforeLast, attempts.count);
    } catch (ApiRequest.BodyChangedException changed) {
      // Refused before the attempt started: lostBeforeLast covers every attempt that went out.
      return new SendReport(
          null,
          changed,
          attempts.reached,
          attempts.lostBeforeLast || attempts.lost,
          attempts.count);
    } catch (IOException | CallNotPermittedException | InterruptedException failure) {
      if (failure instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return new SendReport(
          null, failure, attempts.reached, attempts.lostBeforeLast, attempts.count);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("unexpected checked exception from an attempt", t);
    }
  }

  /**
   * The retry of one send: a backoff never waits past the deadline (the attempt after it fails).
   */
  private Retry retry(boolean retried, Deadline deadline) {
    IntervalBiFunction<Object> backoff = retryConfig.getIntervalBiFunction();
    return Retry.of(
        name + (retried ? "-retried" : "-once"),
        RetryConfig.from(retried ? retryConfig : onceConfig)
            .intervalBiFunction(
                (attempt, either) ->
                    Math.min(backoff.apply(attempt, either), deadline.remaining().toMillis()))
            .build());
  }

  /** Looks the result of the operation sent under {@code key} up, within a call of its own. */
  LookupResult lookup(
      LookupRequest lookup, String key, ResourceId resource, OperationId operation) {
    return lookup(lookup, key, resource, operation, deadline());
  }

  /**
   * Looks the result of the operation sent under {@code key} up within what is left of {@code
   * deadline}: {@link Unavailable} if it passes first.
   */
  LookupResult lookup(
      LookupRequest lookup,
      String key,
      ResourceId resource,
      OperationId operation,
      Deadline deadline) {
    URI uri = ApiRequest.resolve(baseUri, lookup.path(key, resource, operation));
    SendReport report =
        exchange(
            HttpRequest.newBuilder(uri).GET().header(keyHeader, key),
            RETRYABLE,
            true,
            BeforeAttempt.NONE,
            deadline);
    return ResultLookup.read(lookup, key, report, maxResponseBytes, this::redact);
  }

  /** {@code text} with the bearer token replaced by {@code ***}. */
  String redact(String text) {
    return bearer == null ? text : bearer.redact(text);
  }

  private Response attempt(
      HttpRequest http,
      Predicate<Response> retryable,
      Attempts attempts,
      BeforeAttempt before,
      Deadline deadline)
      throws IOException, InterruptedException {
    // Before the count, the permission and any byte: a refused attempt is no attempt. The check
    // may itself look the result up within the deadline, so the deadline is checked again after.
    if (deadline.passed()) {
      throw new CallTimeLimitPassed(deadline.limit());
    }
    before.check(attempts.count + 1, attempts.reached);
    if (deadline.passed()) {
      throw new CallTimeLimitPassed(deadline.limit());
    }
    Response response = exchangeCounted(http, attempts, deadline);
    response
        .bodyError()
        .ifPresent(
            why ->
                debugAttempt(attempts, http, "answered HTTP " + response.status() + " but " + why));
    if (retryable.test(response)) {
      attempts.lost = true;
      debugAttempt(attempts, http, "answered HTTP " + response.status() + ", retryable");
      throw new RetryableAnswer(response);
    }
    return response;
  }

  /**
   * One attempt through the circuit breaker, counted: whether it may have reached the API, and its
   * answer or failure reported to the breaker (IO failures and 5xx are errors).
   */
  private Response exchangeCounted(HttpRequest http, Attempts attempts, Deadline deadline)
      throws IOException, InterruptedException {
    attempts.begin();
    breaker.acquirePermission();
    long start = breaker.getCurrentTimestamp();
    Response response;
    try {
      response = timeLimited(http, deadline);
      attempts.reached = true;
    } catch (IOException e) {
      boolean neverReached = neverReached(e);
      if (!neverReached) {
        attempts.reached = true;
        attempts.lost = true;
      }
      breaker.onError(elapsed(start), breaker.getTimestampUnit(), e);
      debugAttempt(
          attempts,
          http,
          "failed ("
              + (neverReached ? "never reached the API" : "the answer was lost")
              + "): "
              + describe(e));
      throw e;
    } catch (InterruptedException | RuntimeException | Error e) {
      breaker.releasePermission();
      attempts.reached = true;
      throw e;
    }
    if (response.status() >= 500) {
      breaker.onError(
          elapsed(start), breaker.getTimestampUnit(), new ServerError(response.status()));
    } else {
      breaker.onSuccess(elapsed(start), breaker.getTimestampUnit());
    }
    return response;
  }

  /**
   * One exchange that ends within the attempt's time limit, or what is left of the call's deadline
   * if that is shorter, body included ({@link BoundedBody#exchange}).
   */
  private Response timeLimited(HttpRequest http, Deadline deadline)
      throws IOException, InterruptedException {
    Duration left = deadline.remaining();
    boolean cutByDeadline = left.compareTo(attemptTimeout) < 0;
    Duration wait = cutByDeadline ? left : attemptTimeout;
    String limit =
        cutByDeadline
            ? "the rest (" + wait + ") of the call time limit of " + deadline.limit()
            : "the attempt time limit of " + attemptTimeout;
    return BoundedBody.exchange(client, http, maxResponseBytes, wait, limit);
  }

  private static void debugAttempt(Attempts attempts, HttpRequest http, String what) {
    int count = attempts.count;
    LOG.log(
        System.Logger.Level.DEBUG,
        () ->
            "Attempt "
                + count
                + " of "
                + http.method()
                + " "
                + http.uri().getRawPath()
                + " "
                + what);
  }

  private long elapsed(long start) {
    return Math.max(0, breaker.getCurrentTimestamp() - start);
  }

  /**
   * True if the failure happened before a connection was open, so the request cannot have reached
   * the API: a refused connection or a connect timeout. A reset or a timeout on an open connection
   * may have delivered the request.
   */
  static boolean neverReached(IOException e) {
    return e instanceof ConnectException
        || e instanceof HttpConnectTimeoutException
        || e.getCause() instanceof ConnectException;
  }

  /** A short description of a failure without anything from the request. */
  static String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : " " + message);
  }
}
