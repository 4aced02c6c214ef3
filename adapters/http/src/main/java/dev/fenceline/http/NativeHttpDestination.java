package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A destination for an external API that checks fencing tokens itself: what the article calls the
 * ideal. Every request carries the token in a header ({@code Fencing-Token} by default, see {@link
 * TokenHeaderFormat}) and the operation's idempotency key ({@code Idempotency-Key}, the value
 * {@link IdempotencyKeys#of}); the API compares the epoch, records the key and applies the change
 * in one atomic step, exactly as a {@link Destination} does, and tells the outcome by status:
 *
 * <table>
 *   <caption>How answers map to outcomes</caption>
 *   <tr><th>API answer</th><th>outcome</th></tr>
 *   <tr><td>2xx with the {@linkplain Builder#replayMarkedBy replay marker}</td><td>{@link
 *       AlreadyApplied} with the receipt the API stored</td></tr>
 *   <tr><td>other 2xx</td><td>{@link Applied}</td></tr>
 *   <tr><td>{@linkplain Builder#staleTokenStatus stale status} (409) with the current epoch at the
 *       {@linkplain Builder#currentEpochPointer pointer}</td><td>{@link RejectedStale}</td></tr>
 *   <tr><td>{@linkplain Builder#untrustedTokenStatus untrusted status} (403), with the marker if
 *       one is configured</td><td>{@link UntrustedTokenException}</td></tr>
 *   <tr><td>{@linkplain Builder#conflictStatus conflict status} (422)</td><td>{@link
 *       OperationConflictException} with the receipt found by the lookup</td></tr>
 *   <tr><td>no answer (I/O error, timeout), 5xx, the stale status without an epoch (the key is
 *       still being processed), anything else</td><td>{@link StoreException} with {@link
 *       StoreException#outcomeUnknown()} true: retry with the same operation ID (it sends the same
 *       key) or look the result up</td></tr>
 *   <tr><td>a connection that could not be opened, any other 4xx</td><td>{@link StoreException}
 *       with {@code outcomeUnknown} false: nothing was applied</td></tr>
 * </table>
 *
 * <p>The refusals in this table (stale, untrusted, other 4xx, conflict without a recorded receipt)
 * are taken as "nothing changed" only when no earlier attempt of the write may have reached the
 * API. After an attempt whose answer was lost (or was a 5xx, 429 or "still processing"), a refusal
 * of the retry says only what the retry was told: the earlier attempt may have applied the change,
 * and a newer owner may have registered meanwhile. The key is then looked up (the {@linkplain
 * Builder#lookupRequest lookup request}):
 *
 * <ul>
 *   <li>found → {@link AlreadyApplied} with the receipt the API recorded (as for a replay: the
 *       change was applied by an earlier attempt, not by the answered one);
 *   <li>not found, and the refusal is the stale status with a newer epoch → {@link RejectedStale}.
 *       This assumes what a fenced destination promises anyway: the API checks the epoch and
 *       applies the change in one atomic step, and its lookup sees every change applied before the
 *       lookup was answered (linearizable with its writes, never a lagging replica). The newer
 *       epoch was registered before the lookup, so an earlier attempt that had not landed by then
 *       can only reach the epoch check after that registration and be refused;
 *   <li>not found after any other refusal → {@link StoreException} with {@code outcomeUnknown}
 *       true: the earlier attempt may still be in progress at the API and land later (nothing about
 *       a 400, 401, 404 or an untrusted token shown to the retry stops it);
 *   <li>no lookup request configured, or the lookup failed → {@code outcomeUnknown} true.
 * </ul>
 *
 * <p>Receipts are built from the API's answer only: the epoch and the time the API recorded the
 * operation ({@linkplain Builder#epochPointer epoch} and {@linkplain Builder#recordedAtPointer
 * recorded-at} pointers) and the {@linkplain Builder#receiptAttribute attributes}, so a replay or a
 * lookup gives exactly the receipt of the first answer. The HTTP status is not part of a receipt
 * (APIs answer a replay with 200 or 201).
 *
 * <p>Capabilities are those the configuration vouches for: {@link Capability#NATIVE_EPOCH_CHECK}
 * and {@link Capability#OPERATION_RECORD} only with a replay marker (the API checks tokens and
 * replays the results of repeated keys), {@link Capability#RESULT_LOOKUP} only with a lookup
 * request. An API that checks tokens but does not replay results reports no epoch check and is
 * therefore {@link dev.fenceline.spi.Guarantee#UNGUARDED} on purpose: a lost answer followed by a
 * retry would apply the change twice. Fenceline cannot verify what an API claims; test the API
 * against {@code DestinationContract} as this module's tests do.
 *
 * <p>Every attempt ends within the {@linkplain Builder#attemptTimeLimit attempt time limit}, the
 * answer's (bounded) body included. With a replay marker a write whose answer was lost, a 5xx, 429
 * or the stale status without an epoch (the key is still being processed) is retried under the same
 * key through Resilience4j's retry and circuit breaker ({@linkplain Builder#maxAttempts attempts},
 * {@linkplain Builder#backoff backoff}); the stale status with an epoch is not retried (after an
 * earlier attempt that may have landed it is settled by the lookup, as above). Retrying with the
 * same operation ID is safe. The bearer token is read from an environment variable, sent as {@code
 * Authorization: Bearer}, and never appears in a message or log. Thread safe.
 */
public final class NativeHttpDestination implements Destination<ApiRequest>, SupportsEpochReset {

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /** Statuses a read or a keyed write retries besides lost answers: overload and server errors. */
  private static final Set<Integer> RETRYABLE_STATUSES = Set.of(429, 500, 502, 503, 504);

  private static final int MAX_SHOWN = 600;

  private final String name;
  private final URI baseUri;
  private final String tokenHeader;
  private final TokenHeaderFormat tokenFormat;
  private final String idempotencyKeyHeader;
  private final int staleTokenStatus;
  private final JsonPointer currentEpochPointer;
  private final JsonPointer previousEpochPointer;
  private final int untrustedTokenStatus;
  private final Optional<JsonPointer> untrustedMarkerPointer;
  private final String untrustedMarkerValue;
  private final int conflictStatus;
  private final Optional<ReplayMarker> replay;
  private final PathTemplate registerPath;
  private final PathTemplate currentEpochPath;
  private final Optional<PathTemplate> lookupPath;
  private final Optional<PathTemplate> resetPath;
  private final JsonPointer epochPointer;
  private final JsonPointer recordedAtPointer;
  private final JsonPointer messagePointer;
  private final Map<String, JsonPointer> receiptAttributes;
  private final ApiCalls calls;
  private final Set<Capability> capabilities;

  private NativeHttpDestination(Builder b, BearerToken bearer) {
    this.name = b.name;
    this.baseUri = b.baseUri;
    this.tokenHeader = b.tokenHeader;
    this.tokenFormat = b.tokenFormat;
    this.idempotencyKeyHeader = b.idempotencyKeyHeader;
    this.staleTokenStatus = b.staleTokenStatus;
    this.currentEpochPointer = b.currentEpochPointer;
    this.previousEpochPointer = b.previousEpochPointer;
    this.untrustedTokenStatus = b.untrustedTokenStatus;
    this.untrustedMarkerPointer = Optional.ofNullable(b.untrustedMarkerPointer);
    this.untrustedMarkerValue = b.untrustedMarkerValue;
    this.conflictStatus = b.conflictStatus;
    this.replay = Optional.ofNullable(b.replay);
    this.registerPath = b.registerPath;
    this.currentEpochPath = b.currentEpochPath;
    this.lookupPath = Optional.ofNullable(b.lookupPath);
    this.resetPath = Optional.ofNullable(b.resetPath);
    this.epochPointer = b.epochPointer;
    this.recordedAtPointer = b.recordedAtPointer;
    this.messagePointer = b.messagePointer;
    this.receiptAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(b.receiptAttributes));
    HttpClient client =
        b.httpClient != null ? b.httpClient : ResilienceSettings.defaultClient(b.attemptTimeout);
    this.calls =
        new ApiCalls(
            client,
            b.baseUri,
            b.idempotencyKeyHeader,
            bearer,
            b.attemptTimeout,
            b.resilience.callTimeLimit(),
            System::nanoTime,
            b.resilience.retryConfig(),
            b.resilience.breaker(b.name),
            HttpApiDestination.DEFAULT_MAX_RESPONSE_BYTES,
            b.name);
    EnumSet<Capability> set = EnumSet.noneOf(Capability.class);
    if (replay.isPresent()) {
      set.add(Capability.NATIVE_EPOCH_CHECK);
      set.add(Capability.OPERATION_RECORD);
    }
    if (lookupPath.isPresent()) {
      set.add(Capability.RESULT_LOOKUP);
    }
    this.capabilities = Collections.unmodifiableSet(set);
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Set<Capability> capabilities() {
    return capabilities;
  }

  /**
   * Sends {@code request} with the token and the operation's idempotency key; the API checks the
   * epoch and the key in one atomic step. See the class comment for how answers map to outcomes.
   *
   * @return {@link RejectedStale} only if nothing of this call was applied: the first attempt was
   *     refused, or a lookup after the refusal did not find the operation (see the class comment)
   * @throws IllegalArgumentException if the request sets the token or idempotency key header
   * @throws UntrustedTokenException if the API refused the token and no earlier attempt may have
   *     reached it (nothing changed)
   * @throws OperationConflictException if the API says the key was used with another request
   * @throws StoreException if there was no usable answer, or a refusal followed an attempt that may
   *     have landed and the lookup could not settle it; {@link StoreException#outcomeUnknown()}
   *     says whether the API may have applied it
   */
  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, ApiRequest request) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(request, "request is null");
    ResourceId resource = token.resource();
    String action = "write operation " + operation + " of " + resource + " to " + name;
    for (String own : new String[] {tokenHeader, idempotencyKeyHeader}) {
      // request.headers() ignores case; a second value of either header must never be sent.
      if (request.headers().containsKey(own)) {
        throw new IllegalArgumentException(
            "Cannot "
                + action
                + ": the request sets header "
                + own
                + ", which the destination sets itself (remove it from the request)");
      }
    }
    String key = IdempotencyKeys.of(name, resource, operation);
    // One deadline for the whole call: the send's attempts and the lookups after it share it.
    ApiCalls.Deadline deadline = calls.deadline();
    // Retried under the same key only if the API replays results: then a repeat that finds the
    // operation applied answers the stored result; without replay it could apply it twice.
    ApiCalls.SendReport report =
        calls.send(
            key,
            request,
            Map.of(tokenHeader, tokenFormat.encode(token)),
            this::retryableWrite,
            replay.isPresent(),
            deadline);
    if (report.failure() instanceof ApiRequest.BodyChangedException changed) {
      throw new StoreException(
          "Cannot "
              + action
              + ": request body file "
              + ApiRequest.quote(changed.file().toString())
              + " "
              + changed.getMessage()
              + (report.mayHaveReached()
                  ? "; an earlier attempt may have reached the API"
                  : "; nothing was sent")
              + " (keep the file unchanged until the operation is applied; send other content under"
              + " a new operation ID)",
          changed,
          report.mayHaveReached());
    }
    ApiCalls.Response response = answer(action, true, request.resolve(baseUri), report);
    if (isSuccess(response)) {
      Receipt receipt = receipt(action, resource, operation, response, true);
      boolean replayed = replay.map(marker -> marker.matches(response)).orElse(false);
      return replayed ? new AlreadyApplied(receipt) : new Applied(receipt);
    }
    if (report.lostBeforeLast() && isRefusal(response)) {
      return refusedAfterEarlierAttempt(
          action, token, operation, response, report.attempts(), deadline);
    }
    Optional<RejectedStale> stale = stale(action, token, response);
    if (stale.isPresent()) {
      return stale.get();
    }
    refuseIfUntrusted(action, token, response);
    if (response.status() == conflictStatus) {
      Optional<Receipt> recorded =
          lookupPath.isPresent() ? lookup(resource, operation, deadline) : Optional.empty();
      if (recorded.isPresent()) {
        throw OperationConflictException.differentRequest(recorded.get(), request.fingerprint());
      }
      throw new StoreException(
          "Cannot "
              + action
              + ": the API answered "
              + response.status()
              + ", idempotency key "
              + key
              + " was used before with a different request"
              + apiMessage(response)
              + " (an operation ID names exactly one request, so give a different request its own"
              + " operation ID; configure a lookup request to get the recorded receipt)",
          null,
          report.lostBeforeLast());
    }
    throw failed(action, response, true);
  }

  /**
   * True for an answer that, to a first attempt, is a definite refusal: the stale status with an
   * epoch, the untrusted status and every other 4xx but 429 and the conflict status (which has its
   * own rule in {@link #write}).
   */
  private boolean isRefusal(ApiCalls.Response response) {
    int status = response.status();
    return status >= 400
        && status <= 499
        && status != conflictStatus
        && !RETRYABLE_STATUSES.contains(status)
        && !(status == staleTokenStatus && retryableWrite(response));
  }

  /**
   * The outcome of a write whose last attempt was refused after an earlier attempt may have landed
   * (its answer was lost, or it was a 5xx, 429 or "still processing"). The refusal tells only what
   * the last attempt was told, so the key is looked up: found → {@link AlreadyApplied} with the
   * receipt the API recorded; not found and the refusal is a stale answer → {@link RejectedStale};
   * anything else → outcome unknown (see the class comment for why).
   */
  private WriteOutcome refusedAfterEarlierAttempt(
      String action,
      FencingToken token,
      OperationId operation,
      ApiCalls.Response response,
      int attempts,
      ApiCalls.Deadline deadline) {
    String refusal =
        "the API answered "
            + response.status()
            + apiMessage(response)
            + " to attempt "
            + attempts
            + ", but an earlier attempt's answer was lost or in doubt, so that attempt may have"
            + " applied it";
    String hint =
        " (look the result up, or retry with the same operation ID, which sends the same"
            + " idempotency key)";
    if (lookupPath.isEmpty()) {
      throw new StoreException(
          "Cannot "
              + action
              + ": "
              + refusal
              + ", and no lookup request is configured to ask the API whether it did (configure"
              + " one with lookupRequest(path), YAML lookup-request, e.g."
              + " /operations?key={idempotency-key}; or retry with the same operation ID, which"
              + " sends the same idempotency key)",
          null,
          true);
    }
    Optional<Receipt> found;
    try {
      found = lookup(token.resource(), operation, deadline);
    } catch (StoreException e) {
      throw new StoreException(
          "Cannot "
              + action
              + ": "
              + refusal
              + ", and the lookup failed ("
              + lookupFailure(e.getMessage())
              + ")"
              + hint,
          e,
          true);
    }
    if (found.isPresent()) {
      return new AlreadyApplied(found.get());
    }
    if (response.status() == staleTokenStatus) {
      try {
        Optional<RejectedStale> stale = stale(action, token, response);
        if (stale.isPresent()) {
          // The newer epoch was registered before the lookup ran, which did not find the
          // operation: an earlier attempt still in flight reaches the epoch check after that
          // registration and is refused.
          return stale.get();
        }
      } catch (StoreException contradictory) {
        // an answer that contradicts itself proves nothing; reported as unknown below
      }
    }
    throw new StoreException(
        "Cannot "
            + action
            + ": "
            + refusal
            + "; the lookup does not find the operation yet, but an earlier attempt still in"
            + " progress at the API may land after it"
            + hint,
        null,
        true);
  }

  /** The reason in a lookup's failure message, without its own leading "Cannot look up …: ". */
  private static String lookupFailure(String message) {
    if (message != null && message.startsWith("Cannot look up ")) {
      int colon = message.indexOf(": ");
      if (colon > 0) {
        return message.substring(colon + 2);
      }
    }
    return String.valueOf(message);
  }

  /**
   * Asks the API to register the token's epoch (the {@linkplain Builder#registerRequest register
   * request}, with the token header). A 2xx answer must give the token's epoch as the current one
   * and a previous epoch not newer than it; a 2xx that gives a newer current epoch is {@link
   * RejectedStale}.
   *
   * @throws UntrustedTokenException if the API refused the token
   * @throws StoreException if there was no usable answer, or a 2xx answer is unreadable or
   *     contradicts the registration ({@link StoreException#outcomeUnknown()} true: registering the
   *     same epoch again is safe)
   */
  @Override
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    String action = "register " + token + " at " + name;
    URI uri = resolve(registerPath.expand(Map.of("resource", token.resource().value())));
    // One attempt: without a key, a repeat would answer with the repeat's previous epoch.
    ApiCalls.Response response =
        answer(
            action,
            true,
            uri,
            calls.call(
                "POST",
                uri,
                Map.of(tokenHeader, tokenFormat.encode(token)),
                this::retryableRead,
                false));
    if (isSuccess(response)) {
      return registered(action, token, response);
    }
    Optional<RejectedStale> stale = stale(action, token, response);
    if (stale.isPresent()) {
      return stale.get();
    }
    refuseIfUntrusted(action, token, response);
    throw failed(action, response, true);
  }

  /**
   * A 2xx register answer, checked against the epoch asked for: the current epoch it gives is the
   * token's (then {@link Registered}, with a previous epoch not newer than it) or newer (then
   * {@link RejectedStale}: registering an older epoch changes nothing, whatever the status says);
   * anything else contradicts the success, and like an unreadable answer it is an error whose
   * outcome is unknown (the API said it registered).
   */
  private RegisterOutcome registered(
      String action, FencingToken token, ApiCalls.Response response) {
    Epoch current;
    Epoch previous;
    try {
      JsonNode body = json(action, response, false);
      current = epochAt(action, body, currentEpochPointer, response, false);
      previous = epochAt(action, body, previousEpochPointer, response, false);
    } catch (StoreException unreadable) {
      throw new StoreException(unreadable.getMessage(), unreadable.getCause(), true);
    }
    if (current.isNewerThan(token.epoch())) {
      return new RejectedStale(token.resource(), token.epoch(), current);
    }
    if (current.isOlderThan(token.epoch()) || previous.isNewerThan(current)) {
      throw new StoreException(
          "Cannot "
              + action
              + ": the API answered "
              + response.status()
              + " but says the current epoch is "
              + current.value()
              + " and the previous one "
              + previous.value()
              + ", which contradicts registering epoch "
              + token.epoch().value()
              + " (check the API and the current and previous epoch pointers; registering the same"
              + " epoch again is safe)",
          null,
          true);
    }
    return new Registered(token.resource(), token.epoch(), previous);
  }

  /**
   * Asks the API for the receipt of {@code operation} (the {@linkplain Builder#lookupRequest lookup
   * request}); 404 means it was never applied.
   *
   * @throws UnsupportedCapabilityException if no lookup request is configured
   * @throws StoreException if there was no usable answer
   */
  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    return lookup(resource, operation, calls.deadline());
  }

  /** {@link #lookup(ResourceId, OperationId)} within what is left of a write's deadline. */
  private Optional<Receipt> lookup(
      ResourceId resource, OperationId operation, ApiCalls.Deadline deadline) {
    String action = "look up operation " + operation + " of " + resource + " at " + name;
    if (lookupPath.isEmpty()) {
      throw new UnsupportedCapabilityException(
          "Cannot "
              + action
              + ": no lookup request is configured (call lookupRequest(path) with the API's"
              + " lookup by idempotency key, e.g. /operations?key={idempotency-key})");
    }
    String key = IdempotencyKeys.of(name, resource, operation);
    URI uri =
        resolve(
            lookupPath.get().expand(Map.of("resource", resource.value(), "idempotency-key", key)));
    ApiCalls.Response response =
        answer(
            action,
            false,
            uri,
            calls.call("GET", uri, Map.of(), this::retryableRead, true, deadline));
    if (response.status() == 404) {
      return Optional.empty();
    }
    if (isSuccess(response)) {
      return Optional.of(receipt(action, resource, operation, response, false));
    }
    throw failed(action, response, false);
  }

  /**
   * Asks the API for the registered epoch of {@code resource} (the {@linkplain
   * Builder#currentEpochRequest current-epoch request}). Informational only.
   *
   * @throws StoreException if there was no usable answer
   */
  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    String action = "read the current epoch of " + resource + " at " + name;
    URI uri = resolve(currentEpochPath.expand(Map.of("resource", resource.value())));
    ApiCalls.Response response =
        answer(action, false, uri, calls.call("GET", uri, Map.of(), this::retryableRead, true));
    if (isSuccess(response)) {
      return epochAt(action, json(action, response, false), currentEpochPointer, response, false);
    }
    throw failed(action, response, false);
  }

  /**
   * Asks the API to set the registered epoch back (the {@linkplain Builder#resetRequest reset
   * request}); see {@link SupportsEpochReset}.
   *
   * @throws UnsupportedCapabilityException if no reset request is configured
   * @throws StoreException if there was no usable answer
   */
  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(reason, "reason is null");
    String action = "reset the registered epoch of " + resource + " to " + epoch + " at " + name;
    if (resetPath.isEmpty()) {
      throw new UnsupportedCapabilityException(
          "Cannot "
              + action
              + ": no reset request is configured (call resetRequest(path) with the API's admin"
              + " reset, e.g. /fencing/reset?resource={resource}&epoch={epoch}&reason={reason})");
    }
    URI uri =
        resolve(
            resetPath
                .get()
                .expand(
                    Map.of(
                        "resource",
                        resource.value(),
                        "epoch",
                        Long.toString(epoch.value()),
                        "reason",
                        reason)));
    ApiCalls.Response response =
        answer(action, true, uri, calls.call("POST", uri, Map.of(), this::retryableRead, false));
    if (isSuccess(response)) {
      return epochAt(action, json(action, response, true), previousEpochPointer, response, true);
    }
    throw failed(action, response, true);
  }

  @Override
  public String toString() {
    return "NativeHttpDestination[" + name + " at " + baseUri + ", " + capabilities + "]";
  }

  /** The circuit breaker every request of this destination goes through. */
  public CircuitBreaker circuitBreaker() {
    return calls.breaker();
  }

  /**
   * A keyed write is worth another attempt under the same key for a server error, 429, the stale
   * status <em>without</em> a current epoch (the key is still being processed), and a success whose
   * body was cut off (the repeat is answered with the stored result). The stale status with a
   * current epoch is a definite answer and never retried.
   */
  private boolean retryableWrite(ApiCalls.Response response) {
    if (response.status() == staleTokenStatus) {
      JsonNode node = parse(response).at(currentEpochPointer);
      return node.isMissingNode() || node.isNull();
    }
    return retryableRead(response);
  }

  private boolean retryableRead(ApiCalls.Response response) {
    return RETRYABLE_STATUSES.contains(response.status())
        || (isSuccess(response) && response.bodyError().isPresent());
  }

  /** The last answer of {@code report}, or a {@link StoreException} saying why there is none. */
  private ApiCalls.Response answer(
      String action, boolean changes, URI uri, ApiCalls.SendReport report) {
    if (report.response() != null) {
      return report.response();
    }
    Throwable failure = report.failure();
    String reason;
    if (failure instanceof CallNotPermittedException) {
      reason = "the circuit breaker is open";
    } else if (failure instanceof IOException io && ApiCalls.neverReached(io)) {
      reason = "the connection failed (" + describe(failure) + ")";
    } else if (failure instanceof HttpTimeoutException) {
      reason = "no answer within the attempt time limit of " + calls.attemptTimeout();
    } else if (failure instanceof InterruptedException) {
      reason = "the calling thread was interrupted while waiting";
    } else {
      reason = "the exchange failed (" + describe(failure) + ")";
    }
    if (report.attempts() > 1) {
      reason += " on the last of " + report.attempts() + " attempts";
    }
    String hint;
    if (!report.mayHaveReached()) {
      hint = "nothing reached the API; retry when it is reachable";
    } else if (changes) {
      hint =
          "the API may have applied it; retry with the same operation ID, which sends the same"
              + " idempotency key, or look the result up";
    } else {
      hint = "retry later";
    }
    throw new StoreException(
        "Cannot " + action + ": " + reason + " from " + uri + " (" + hint + ")",
        failure,
        report.mayHaveReached());
  }

  private String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + calls.redact(message));
  }

  private static boolean isSuccess(ApiCalls.Response response) {
    return response.status() >= 200 && response.status() <= 299;
  }

  /** A stale-token answer: the stale status with a current epoch; empty for anything else. */
  private Optional<RejectedStale> stale(
      String action, FencingToken token, ApiCalls.Response response) {
    if (response.status() != staleTokenStatus) {
      return Optional.empty();
    }
    JsonNode node = parse(response).at(currentEpochPointer);
    if (node.isMissingNode() || node.isNull()) {
      return Optional.empty(); // the same status for "the key is still being processed"
    }
    Epoch current = epochAt(action, parse(response), currentEpochPointer, response, false);
    if (!token.epoch().isOlderThan(current)) {
      throw new StoreException(
          "Cannot "
              + action
              + ": the API answered "
              + response.status()
              + " (stale token) but says the current epoch is "
              + current
              + ", which is not newer than the token's epoch "
              + token.epoch()
              + " (the API or the configured stale-token status "
              + staleTokenStatus
              + " is wrong)",
          null,
          false);
    }
    return Optional.of(new RejectedStale(token.resource(), token.epoch(), current));
  }

  private void refuseIfUntrusted(String action, FencingToken token, ApiCalls.Response response) {
    if (response.status() != untrustedTokenStatus) {
      return;
    }
    if (untrustedMarkerPointer.isPresent()) {
      JsonNode marker = parse(response).at(untrustedMarkerPointer.get());
      if (!marker.isString() || !marker.stringValue().equals(untrustedMarkerValue)) {
        return;
      }
    }
    throw new UntrustedTokenException(
        "Cannot "
            + action
            + " with token "
            + token
            + ": the API refused the token as untrusted"
            + apiMessage(response)
            + " (take the token from the issuer the resource is registered with; for signed tokens"
            + " the API needs the issuer's keys)");
  }

  private StoreException failed(String action, ApiCalls.Response response, boolean changes) {
    int status = response.status();
    boolean unknown = status >= 500 || status < 400 || status == staleTokenStatus;
    String hint;
    if (!unknown) {
      hint =
          "the API refused the request and changed nothing; fix the request or the destination's"
              + " configuration before retrying";
    } else if (changes) {
      hint =
          "the API may have applied it; retry with the same operation ID, which sends the same"
              + " idempotency key, or look the result up";
    } else {
      hint = "retry later";
    }
    return new StoreException(
        "Cannot "
            + action
            + ": the API answered "
            + status
            + apiMessage(response)
            + " ("
            + hint
            + ")",
        null,
        unknown && changes);
  }

  private Receipt receipt(
      String action,
      ResourceId resource,
      OperationId operation,
      ApiCalls.Response response,
      boolean applied) {
    JsonNode body = json(action, response, applied);
    Epoch epoch = epochAt(action, body, epochPointer, response, applied);
    JsonNode recordedAtNode = body.at(recordedAtPointer);
    Instant recordedAt;
    try {
      recordedAt = Instant.parse(recordedAtNode.isString() ? recordedAtNode.stringValue() : "");
    } catch (DateTimeParseException e) {
      throw unreadable(
          action, response, applied, "no ISO-8601 instant at " + recordedAtPointer, "recorded-at");
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : attributeNodes(body).entrySet()) {
      JsonNode node = field.getValue();
      if (node.isMissingNode() || node.isNull()) {
        throw unreadable(
            action,
            response,
            applied,
            "no value at " + receiptAttributes.get(field.getKey()),
            "receipt attribute " + field.getKey());
      }
      attributes.put(field.getKey(), node.isValueNode() ? node.asString() : node.toString());
    }
    try {
      return new Receipt(name, resource, operation, epoch, recordedAt, attributes);
    } catch (IllegalArgumentException e) {
      throw unreadable(action, response, applied, e.getMessage(), "receipt attributes");
    }
  }

  private Map<String, JsonNode> attributeNodes(JsonNode body) {
    Map<String, JsonNode> nodes = new LinkedHashMap<>();
    receiptAttributes.forEach((attribute, pointer) -> nodes.put(attribute, body.at(pointer)));
    return nodes;
  }

  private Epoch epochAt(
      String action,
      JsonNode body,
      JsonPointer pointer,
      ApiCalls.Response response,
      boolean applied) {
    JsonNode node = body.at(pointer);
    String text =
        node.isIntegralNumber() && node.canConvertToLong()
            ? Long.toString(node.longValue())
            : node.isString() ? node.stringValue() : "";
    if (!text.matches("0|[1-9][0-9]{0,18}")) {
      throw unreadable(action, response, applied, "no epoch at " + pointer, "epoch pointer");
    }
    try {
      return Epoch.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      throw unreadable(action, response, applied, "the epoch at " + pointer + " is too large", "");
    }
  }

  private JsonNode json(String action, ApiCalls.Response response, boolean applied) {
    if (response.bodyError().isPresent() || response.truncated()) {
      String why =
          response.truncated()
              ? "its body is larger than " + response.body().length + " bytes"
              : response.bodyError().get();
      throw new StoreException(
          "Cannot "
              + action
              + ": the API answered "
              + response.status()
              + " but "
              + why
              + (applied
                  ? " (the API says it applied the operation; retry with the same operation ID,"
                      + " which the API answers with the stored result, or look the result up)"
                  : " (retry later)"),
          null,
          applied);
    }
    try {
      JsonNode node = JSON.readTree(response.body());
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (JacksonException e) {
      // reported below, without the parser's text (it may quote the body)
    }
    throw unreadable(action, response, applied, "the body is not a JSON object", "API");
  }

  /** The body as JSON, or an empty object if it is not JSON (for reading optional fields). */
  private static JsonNode parse(ApiCalls.Response response) {
    try {
      JsonNode node = JSON.readTree(response.body());
      return node == null ? JSON.createObjectNode() : node;
    } catch (JacksonException e) {
      return JSON.createObjectNode();
    }
  }

  private StoreException unreadable(
      String action, ApiCalls.Response response, boolean applied, String reason, String what) {
    return new StoreException(
        "Cannot "
            + action
            + ": the API answered "
            + response.status()
            + " but "
            + reason
            + (applied
                ? " (the API says it applied the operation; fix the "
                    + what
                    + " configuration to match the API's answer, then look the result up)"
                : " (fix the " + what + " configuration to match the API's answer)"),
        null,
        applied);
  }

  /** {@code ": "} and the API's error message, redacted and shown safely, or nothing. */
  private String apiMessage(ApiCalls.Response response) {
    JsonNode node = parse(response).at(messagePointer);
    if (!node.isString() || node.stringValue().isBlank()) {
      return "";
    }
    return ": " + shown(calls.redact(node.stringValue()));
  }

  /** At most {@value #MAX_SHOWN} characters, every control character escaped. */
  private static String shown(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .limit(MAX_SHOWN)
        .forEach(
            c -> {
              if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                out.append(String.format("\\u%04x", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    if (text.codePointCount(0, text.length()) > MAX_SHOWN) {
      out.append("...");
    }
    return out.toString();
  }

  private URI resolve(String path) {
    String prefix = baseUri.toString();
    if (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    return URI.create(prefix + path);
  }

  /**
   * Validating builder for {@link NativeHttpDestination}. Required: {@link #name}, {@link
   * #baseUri}, {@link #registerRequest} and {@link #currentEpochRequest}. Everything else has a
   * default that matches the IETF idempotency-key draft and Stripe-like APIs; {@link
   * #replayMarkedBy} and {@link #lookupRequest} have none, and without them the destination reports
   * less (see the class comment).
   */
  public static final class Builder {

    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");
    private static final Set<String> RESERVED =
        Set.of("authorization", "content-type", "content-length", "host", "connection");

    private String name;
    private URI baseUri;
    private String tokenHeader = "Fencing-Token";
    private TokenHeaderFormat tokenFormat = TokenHeaderFormat.FULL;
    private String idempotencyKeyHeader = "Idempotency-Key";
    private int staleTokenStatus = 409;
    private JsonPointer currentEpochPointer = JsonPointer.compile("/current-epoch");
    private JsonPointer previousEpochPointer = JsonPointer.compile("/previous-epoch");
    private int untrustedTokenStatus = 403;
    private JsonPointer untrustedMarkerPointer;
    private String untrustedMarkerValue;
    private int conflictStatus = 422;
    private ReplayMarker replay;
    private PathTemplate registerPath;
    private PathTemplate currentEpochPath;
    private PathTemplate lookupPath;
    private PathTemplate resetPath;
    private JsonPointer epochPointer = JsonPointer.compile("/epoch");
    private JsonPointer recordedAtPointer = JsonPointer.compile("/recorded-at");
    private JsonPointer messagePointer = JsonPointer.compile("/message");
    private final Map<String, JsonPointer> receiptAttributes = new LinkedHashMap<>();
    private String bearerTokenVariable;
    private final ResilienceSettings resilience = new ResilienceSettings();
    private Function<String, String> environment = System::getenv;
    private HttpClient httpClient;
    private Duration attemptTimeout = HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT;

    private Builder() {}

    /** The destination's name ({@link Destination#NAME}); it scopes the idempotency keys. */
    public Builder name(String name) {
      try {
        this.name = Destination.validateName(name);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(e.getMessage(), e);
      }
      return this;
    }

    /**
     * The API's base URI ({@code http} or {@code https}, no user info, query or fragment); request
     * paths are appended to it.
     */
    public Builder baseUri(URI baseUri) {
      requireNonNull(baseUri, "baseUri is null");
      String scheme =
          baseUri.getScheme() == null ? "" : baseUri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https"))
          || baseUri.getHost() == null
          || baseUri.getRawQuery() != null
          || baseUri.getRawFragment() != null) {
        throw new ConfigurationException(
            "Cannot use base URI "
                + ApiRequest.quote(baseUri.getScheme() + "://" + baseUri.getHost())
                + ": give an absolute http or https URI without query or fragment (e.g."
                + " https://api.example.com/v1)");
      }
      if (baseUri.getRawUserInfo() != null) {
        // Not quoted: the user info is a credential.
        throw new ConfigurationException(
            "Cannot use a base URI with user info for destination "
                + (name == null ? "(unnamed)" : name)
                + ": credentials never go into URIs (put the token in an environment variable"
                + " and call bearerTokenFromEnv)");
      }
      this.baseUri = baseUri;
      return this;
    }

    /** The header that carries the token. Default {@code Fencing-Token}. */
    public Builder tokenHeader(String header) {
      this.tokenHeader = headerName("token header", header);
      return this;
    }

    /** How the token is written into its header. Default {@link TokenHeaderFormat#FULL}. */
    public Builder tokenFormat(TokenHeaderFormat format) {
      this.tokenFormat = requireNonNull(format, "format is null");
      return this;
    }

    /** The header that carries the idempotency key. Default {@code Idempotency-Key}. */
    public Builder idempotencyKeyHeader(String header) {
      this.idempotencyKeyHeader = headerName("idempotency key header", header);
      return this;
    }

    /**
     * The status the API answers a stale token with (default 409). The answer must carry the
     * current epoch at the {@link #currentEpochPointer}; the same status without it is read as "the
     * key is still being processed" (outcome unknown).
     */
    public Builder staleTokenStatus(int status) {
      this.staleTokenStatus = clientError("stale token status", status);
      return this;
    }

    /**
     * Where the API's stale-token, register and current-epoch answers give the current epoch.
     * Default {@code /current-epoch}.
     */
    public Builder currentEpochPointer(String pointer) {
      this.currentEpochPointer = pointer("current epoch pointer", pointer);
      return this;
    }

    /**
     * Where the register and reset answers give the epoch registered before. Default {@code
     * /previous-epoch}.
     */
    public Builder previousEpochPointer(String pointer) {
      this.previousEpochPointer = pointer("previous epoch pointer", pointer);
      return this;
    }

    /**
     * The status the API answers an untrusted (foreign, unsigned, forged) token with. Default 403.
     */
    public Builder untrustedTokenStatus(int status) {
      this.untrustedTokenStatus = clientError("untrusted token status", status);
      return this;
    }

    /**
     * Counts an {@linkplain #untrustedTokenStatus untrusted-status} answer as an untrusted token
     * only when the string at {@code pointer} equals {@code value}, for APIs that answer other
     * refusals (a wrong bearer token) with the same status. Default: no marker.
     */
    public Builder untrustedTokenMarker(String pointer, String value) {
      this.untrustedMarkerPointer = pointer("untrusted token marker pointer", pointer);
      this.untrustedMarkerValue = requireNonNull(value, "value is null");
      return this;
    }

    /**
     * The status the API answers when an idempotency key is reused with another request. Default
     * 422 (the IETF idempotency-key draft).
     */
    public Builder conflictStatus(int status) {
      this.conflictStatus = clientError("conflict status", status);
      return this;
    }

    /**
     * Declares that the API replays the stored result for a repeated key and how a replay is
     * marked. Without this the destination does not report {@link Capability#OPERATION_RECORD}.
     */
    public Builder replayMarkedBy(ReplayMarker marker) {
      this.replay = requireNonNull(marker, "marker is null");
      return this;
    }

    /**
     * The register request: a {@code POST} of this path with the token header, answered with the
     * registered and the previous epoch (required). Placeholder: {@code {resource}}.
     */
    public Builder registerRequest(String path) {
      this.registerPath = template("register request", path, Set.of("resource"), Set.of());
      return this;
    }

    /**
     * The current-epoch request: a {@code GET} of this path, answered with the epoch at the {@link
     * #currentEpochPointer} (required). Placeholder: {@code {resource}} (required).
     */
    public Builder currentEpochRequest(String path) {
      this.currentEpochPath =
          template("current epoch request", path, Set.of("resource"), Set.of("resource"));
      return this;
    }

    /**
     * The lookup request: a {@code GET} of this path, answered 200 with the receipt fields or 404.
     * Placeholders: {@code {idempotency-key}} (required), {@code {resource}}. Without it the
     * destination does not report {@link Capability#RESULT_LOOKUP}.
     */
    public Builder lookupRequest(String path) {
      this.lookupPath =
          template(
              "lookup request",
              path,
              Set.of("resource", "idempotency-key"),
              Set.of("idempotency-key"));
      return this;
    }

    /**
     * The admin reset request ({@link SupportsEpochReset}): a {@code POST} of this path, answered
     * with the previous epoch. Placeholders: {@code {resource}}, {@code {epoch}} (both required),
     * {@code {reason}}.
     */
    public Builder resetRequest(String path) {
      this.resetPath =
          template(
              "reset request",
              path,
              Set.of("resource", "epoch", "reason"),
              Set.of("resource", "epoch"));
      return this;
    }

    /** Where a write or lookup answer gives the operation's epoch. Default {@code /epoch}. */
    public Builder epochPointer(String pointer) {
      this.epochPointer = pointer("epoch pointer", pointer);
      return this;
    }

    /**
     * Where a write or lookup answer gives the ISO-8601 instant the API recorded the operation.
     * Default {@code /recorded-at}.
     */
    public Builder recordedAtPointer(String pointer) {
      this.recordedAtPointer = pointer("recorded-at pointer", pointer);
      return this;
    }

    /** Where an error answer gives a message shown in exceptions. Default {@code /message}. */
    public Builder messagePointer(String pointer) {
      this.messagePointer = pointer("message pointer", pointer);
      return this;
    }

    /**
     * Adds receipt attribute {@code name} read from {@code pointer} of every write and lookup
     * answer (it must be present); a string is taken as is, another value as its JSON text.
     */
    public Builder receiptAttribute(String name, String pointer) {
      requireNonNull(name, "name is null");
      if (!name.matches("[a-z0-9][a-z0-9.-]{0,63}")) {
        throw new ConfigurationException(
            "Cannot add receipt attribute "
                + ApiRequest.quote(name)
                + ": names are 1 to 64 characters from [a-z0-9.-] (e.g. payment-id)");
      }
      receiptAttributes.put(name, pointer("receipt attribute " + name + " pointer", pointer));
      return this;
    }

    /**
     * Sends {@code Authorization: Bearer <value of variable>}. The variable is read when the
     * destination is built; its value never appears in messages or logs.
     */
    public Builder bearerTokenFromEnv(String variable) {
      this.bearerTokenVariable = BearerToken.checkVariable(variable);
      return this;
    }

    /** Where environment variables are read from. Default {@link System#getenv(String)}. */
    public Builder environment(Function<String, String> environment) {
      this.environment = requireNonNull(environment, "environment is null");
      return this;
    }

    /** The client to send with (e.g. with a proxy or TLS settings). Default: a new client. */
    public Builder httpClient(HttpClient client) {
      this.httpClient = requireNonNull(client, "client is null");
      return this;
    }

    /**
     * How long one attempt may take, answer included (as {@link
     * HttpApiDestination.Builder#attemptTimeLimit}). Default 3 s; one write, its attempts, backoffs
     * and lookups together, is bounded by the {@link #callTimeLimit}. The default client's connect
     * timeout is 2 s, or this limit if it is shorter ({@link
     * ResilienceSettings#defaultConnectTimeout}).
     */
    public Builder attemptTimeLimit(Duration timeout) {
      requireNonNull(timeout, "timeout is null");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new ConfigurationException(
            "Cannot use attempt time limit "
                + timeout
                + ": it must be positive (e.g. Duration.ofSeconds(10))");
      }
      this.attemptTimeout = timeout;
      return this;
    }

    /**
     * The overall bound of one write, its attempts, backoffs and lookups included (as {@link
     * HttpApiDestination.Builder#callTimeLimit}); default 20 s. Once it has passed nothing more is
     * sent, and the outcome is unknown if an attempt may have reached the API. Keep it below the
     * lease ttl.
     */
    public Builder callTimeLimit(Duration limit) {
      resilience.callTimeLimit(limit);
      return this;
    }

    /**
     * Attempts per request, the first included, 1 to 20; default 3 (as {@link
     * HttpApiDestination.Builder#maxAttempts}). A write is retried under the same idempotency key
     * only when the API {@linkplain #replayMarkedBy replays results}; reads are retried; register
     * and reset requests, which carry no key, are sent once.
     */
    public Builder maxAttempts(int maxAttempts) {
      resilience.maxAttempts(maxAttempts);
      return this;
    }

    /**
     * Exponential backoff between attempts: {@code initial}, times {@code multiplier} (at least 1)
     * per retry, at most {@code max}; defaults 500 ms, 2.0, 2 s.
     */
    public Builder backoff(Duration initial, double multiplier, Duration max) {
      resilience.backoff(initial, multiplier, max);
      return this;
    }

    /** The randomization factor of the backoff, in [0, 1); default 0.5. */
    public Builder jitter(double jitter) {
      resilience.jitter(jitter);
      return this;
    }

    /**
     * A circuit breaker built from {@code config}; IO failures and 5xx answers count as errors. By
     * default: 50% failures over the last 10 calls (at least 5), open for 30 s.
     */
    public Builder circuitBreaker(CircuitBreakerConfig config) {
      resilience.circuitBreaker(config);
      return this;
    }

    /** An existing circuit breaker (e.g. from a registry, shared), reported to as above. */
    public Builder circuitBreaker(CircuitBreaker breaker) {
      resilience.circuitBreaker(breaker);
      return this;
    }

    /**
     * Builds the destination.
     *
     * @throws ConfigurationException if a required setting is missing, two settings clash, or the
     *     bearer token's variable is not set
     */
    public NativeHttpDestination build() {
      String subject = "native HTTP destination " + (name == null ? "(unnamed)" : name);
      require(name != null, subject, "no name was given (call name(...), e.g. payments)");
      require(baseUri != null, subject, "no base URI was given (call baseUri(...))");
      require(
          registerPath != null,
          subject,
          "no register request was given; a new owner must be able to cut the old one off (call"
              + " registerRequest(path), e.g. /fencing/register)");
      require(
          currentEpochPath != null,
          subject,
          "no current-epoch request was given (call currentEpochRequest(path), e.g."
              + " /fencing/epoch?resource={resource})");
      require(
          !tokenHeader.equalsIgnoreCase(idempotencyKeyHeader),
          subject,
          "the token header and the idempotency key header are both " + tokenHeader);
      require(
          staleTokenStatus != untrustedTokenStatus
              && staleTokenStatus != conflictStatus
              && untrustedTokenStatus != conflictStatus,
          subject,
          "the stale token status "
              + staleTokenStatus
              + ", untrusted token status "
              + untrustedTokenStatus
              + " and conflict status "
              + conflictStatus
              + " must differ");
      BearerToken bearer =
          bearerTokenVariable == null
              ? null
              : BearerToken.fromEnvironment(bearerTokenVariable, environment);
      return new NativeHttpDestination(this, bearer);
    }

    private static void require(boolean condition, String subject, String reason) {
      if (!condition) {
        throw new ConfigurationException("Cannot build " + subject + ": " + reason);
      }
    }

    private static String headerName(String what, String header) {
      requireNonNull(header, what + " is null");
      if (!HEADER_NAME.matcher(header).matches()
          || RESERVED.contains(header.toLowerCase(Locale.ROOT))) {
        throw new ConfigurationException(
            "Cannot use "
                + what
                + " "
                + ApiRequest.quote(header)
                + ": give an HTTP header name the destination does not set otherwise (not"
                + " Authorization or Content-Type)");
      }
      return header;
    }

    private static int clientError(String what, int status) {
      if (status < 400 || status > 499) {
        throw new ConfigurationException(
            "Cannot use "
                + what
                + " "
                + status
                + ": a refusal is a 4xx status (5xx means the outcome is unknown)");
      }
      return status;
    }

    private static JsonPointer pointer(String what, String pointer) {
      requireNonNull(pointer, what + " is null");
      try {
        if (!pointer.startsWith("/")) {
          throw new IllegalArgumentException("it must start with /");
        }
        return JsonPointer.compile(pointer);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(
            "Cannot use "
                + what
                + " "
                + ApiRequest.quote(pointer)
                + ": it is not a JSON pointer (RFC 6901, e.g. /data/id)",
            e);
      }
    }

    private static PathTemplate template(
        String what, String path, Set<String> allowed, Set<String> required) {
      try {
        return PathTemplate.of(what, path, allowed, required);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(e.getMessage(), e);
      }
    }
  }
}
