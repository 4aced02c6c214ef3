package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends the requests of one business operation to an API: every attempt under the one idempotency
 * key it is given, with the bearer token, a per-attempt time limit, Resilience4j's retry and
 * circuit breaker, and a bounded response body. It decides nothing about intents; it reports what
 * happened precisely enough for the caller to tell "never reached the API" from "may have landed".
 * Shared by the intent mode and, later, a native mode. Thread-safe.
 */
final class ApiCalls {

  /** Statuses worth another attempt under the same key: 409 = the same key is still processing. */
  static final Set<Integer> RETRYABLE_STATUSES = Set.of(409, 429, 500, 502, 503, 504);

  private static final System.Logger LOG = System.getLogger(ApiCalls.class.getName());
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** An answer of the API, with at most {@code maxResponseBytes} of its body. */
  record Response(int status, byte[] body, boolean truncated) {
    boolean successful() {
      return status >= 200 && status < 300;
    }
  }

  /**
   * What all attempts of one send came to.
   *
   * @param response the last answer, or null if the last attempt got none
   * @param failure the last attempt's failure (an {@link IOException}, {@link
   *     CallNotPermittedException} or an interruption), or null if it got an answer
   * @param mayHaveReached true if any attempt may have reached the API (it answered, or the
   *     connection broke after it was open); false only if every attempt failed to connect or was
   *     refused by the breaker
   * @param lostBeforeLast true if an attempt before the last one may have landed without an answer
   *     (lost answer or retryable status)
   * @param attempts how many attempts were made or refused
   */
  record SendReport(
      Response response,
      Throwable failure,
      boolean mayHaveReached,
      boolean lostBeforeLast,
      int attempts) {}

  /** The answer of a result lookup. */
  sealed interface LookupResult permits Found, NotFound, Unavailable {}

  /** The API knows the operation; {@code record} is what the lookup selected. */
  record Found(JsonNode record) implements LookupResult {}

  /** The API says it never saw the key. */
  record NotFound(int status) implements LookupResult {}

  /** The lookup gave no definite answer. */
  record Unavailable(String reason, Throwable cause) implements LookupResult {}

  /**
   * A lookup request.
   *
   * @param pathTemplate a path and query under the base URI with {@code {key}}, {@code {resource}}
   *     and {@code {operation}} placeholders, filled in URL-encoded
   * @param recordPointer selects the record in a 200 answer; missing, null or empty = not found
   */
  record LookupRequest(String pathTemplate, Optional<JsonPointer> recordPointer) {
    LookupRequest {
      requireNonNull(pathTemplate, "pathTemplate is null");
      requireNonNull(recordPointer, "recordPointer is null");
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

  /** Thrown inside an attempt for a retryable status, so that Resilience4j retries it. */
  private static final class RetryableStatus extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Response response;

    RetryableStatus(Response response) {
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
  private final Retry sendRetry;
  private final Retry lookupRetry;
  private final CircuitBreaker breaker;
  private final int maxResponseBytes;

  ApiCalls(
      HttpClient client,
      URI baseUri,
      String keyHeader,
      BearerToken bearer,
      Duration attemptTimeout,
      RetryConfig retryConfig,
      CircuitBreaker breaker,
      int maxResponseBytes,
      String name) {
    this.client = requireNonNull(client, "client is null");
    this.baseUri = requireNonNull(baseUri, "baseUri is null");
    this.keyHeader = requireNonNull(keyHeader, "keyHeader is null");
    this.bearer = bearer;
    this.attemptTimeout = requireNonNull(attemptTimeout, "attemptTimeout is null");
    RetryConfig config =
        RetryConfig.from(retryConfig)
            .retryOnException(e -> e instanceof IOException || e instanceof RetryableStatus)
            .build();
    this.sendRetry = Retry.of(name + "-send", config);
    this.lookupRetry = Retry.of(name + "-lookup", config);
    this.breaker = requireNonNull(breaker, "breaker is null");
    this.maxResponseBytes = maxResponseBytes;
  }

  /** The circuit breaker every request goes through. */
  CircuitBreaker breaker() {
    return breaker;
  }

  /** Sends {@code request} under {@code key}, retrying lost answers and retryable statuses. */
  SendReport send(String key, ApiRequest request) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(request.resolve(baseUri))
            .timeout(attemptTimeout)
            .header("Content-Type", request.contentType())
            .method(request.method(), publisher(request.body()));
    request.headers().forEach(builder::header);
    HttpRequest http = withCredentials(builder, key).build();
    Attempts attempts = new Attempts();
    try {
      Response response = sendRetry.executeCheckedSupplier(() -> attempt(http, attempts));
      return new SendReport(response, null, true, attempts.lostBeforeLast, attempts.count);
    } catch (RetryableStatus exhausted) {
      return new SendReport(
          exhausted.response, null, true, attempts.lostBeforeLast, attempts.count);
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

  /** Looks the result of the operation sent under {@code key} up. */
  LookupResult lookup(
      LookupRequest lookup, String key, ResourceId resource, OperationId operation) {
    URI uri = new ApiRequestPath(lookup.path(key, resource, operation)).resolve(baseUri);
    HttpRequest http =
        withCredentials(HttpRequest.newBuilder(uri).timeout(attemptTimeout).GET(), key).build();
    Attempts attempts = new Attempts();
    Response response;
    try {
      response = lookupRetry.executeCheckedSupplier(() -> attempt(http, attempts));
    } catch (RetryableStatus exhausted) {
      return new Unavailable("the lookup answered HTTP " + exhausted.response.status(), null);
    } catch (CallNotPermittedException e) {
      return new Unavailable("the circuit breaker is open", e);
    } catch (Throwable e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (e instanceof Error error) {
        throw error;
      }
      return new Unavailable("the lookup failed: " + describe(e), e);
    }
    if (response.status() == 404) {
      return new NotFound(404);
    }
    if (response.status() != 200) {
      return new Unavailable("the lookup answered HTTP " + response.status(), null);
    }
    if (response.truncated()) {
      return new Unavailable(
          "the lookup's answer is larger than " + maxResponseBytes + " bytes", null);
    }
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (JacksonException e) {
      if (lookup.recordPointer().isEmpty()) {
        return new Found(null);
      }
      return new Unavailable("the lookup's answer is not JSON", null);
    }
    JsonNode record =
        lookup.recordPointer().map(pointer -> body == null ? null : body.at(pointer)).orElse(body);
    if (lookup.recordPointer().isPresent()
        && (record == null
            || record.isMissingNode()
            || record.isNull()
            || ((record.isArray() || record.isObject()) && record.isEmpty()))) {
      return new NotFound(200);
    }
    return new Found(record);
  }

  /** Parses a response body as JSON; empty if it is not JSON. */
  static Optional<JsonNode> parse(byte[] body) {
    try {
      JsonNode node = JSON.readTree(body);
      return Optional.ofNullable(node).filter(n -> !n.isMissingNode());
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }

  private HttpRequest.Builder withCredentials(HttpRequest.Builder builder, String key) {
    builder.header(keyHeader, key);
    if (bearer != null) {
      builder.header("Authorization", bearer.headerValue());
    }
    return builder;
  }

  private Response attempt(HttpRequest http, Attempts attempts)
      throws IOException, InterruptedException {
    attempts.begin();
    breaker.acquirePermission();
    long start = breaker.getCurrentTimestamp();
    Response response;
    try {
      HttpResponse<InputStream> answer =
          client.send(http, HttpResponse.BodyHandlers.ofInputStream());
      attempts.reached = true;
      response = read(answer);
    } catch (IOException e) {
      boolean neverReached = neverReached(e);
      if (!neverReached) {
        attempts.reached = true;
        attempts.lost = true;
      }
      breaker.onError(elapsed(start), breaker.getTimestampUnit(), e);
      LOG.log(
          System.Logger.Level.DEBUG,
          () ->
              "Attempt "
                  + attempts.count
                  + " of "
                  + http.method()
                  + " "
                  + http.uri().getRawPath()
                  + " failed ("
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
    if (RETRYABLE_STATUSES.contains(response.status())) {
      attempts.lost = true;
      LOG.log(
          System.Logger.Level.DEBUG,
          () ->
              "Attempt "
                  + attempts.count
                  + " of "
                  + http.method()
                  + " "
                  + http.uri().getRawPath()
                  + " answered HTTP "
                  + response.status());
      throw new RetryableStatus(response);
    }
    return response;
  }

  private long elapsed(long start) {
    return Math.max(0, breaker.getCurrentTimestamp() - start);
  }

  private Response read(HttpResponse<InputStream> answer) throws IOException {
    try (InputStream body = answer.body()) {
      byte[] bytes = body.readNBytes(maxResponseBytes + 1);
      boolean truncated = bytes.length > maxResponseBytes;
      if (truncated) {
        bytes = java.util.Arrays.copyOf(bytes, maxResponseBytes);
      }
      return new Response(answer.statusCode(), bytes, truncated);
    }
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

  private static HttpRequest.BodyPublisher publisher(ApiRequest.Body body) {
    if (body instanceof ApiRequest.FileBody file) {
      try {
        return HttpRequest.BodyPublishers.ofFile(file.file());
      } catch (java.io.FileNotFoundException e) {
        throw new java.io.UncheckedIOException(
            "Cannot send request body " + file.file() + ": the file is gone (" + e + ")", e);
      }
    }
    return HttpRequest.BodyPublishers.ofByteArray(((ApiRequest.BytesBody) body).bytes());
  }

  /** A lookup path resolved like an {@link ApiRequest}'s. */
  private record ApiRequestPath(String path) {
    URI resolve(URI base) {
      String prefix = base.toString();
      if (prefix.endsWith("/")) {
        prefix = prefix.substring(0, prefix.length() - 1);
      }
      return URI.create(prefix + path);
    }
  }
}
