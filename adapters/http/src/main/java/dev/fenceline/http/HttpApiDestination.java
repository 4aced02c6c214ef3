package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentOutcome;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * One external HTTP API call per business operation, fenced at the intent ({@link
 * dev.fenceline.spi.Guarantee#FENCED_AT_INTENT}): for APIs that honour idempotency keys but cannot
 * compare epochs (R7).
 *
 * <p>{@link #write} works in this order:
 *
 * <ol>
 *   <li>{@link IntentStore#begin} checks the epoch and records the intent in one atomic step,
 *       before any request. A stale worker gets {@link RejectedStale} and sends nothing; a retry
 *       with another request fails with {@link dev.fenceline.spi.OperationConflictException} and
 *       sends nothing; a completed operation answers {@link AlreadyApplied} from the record and
 *       sends nothing.
 *   <li>If an earlier attempt (of this worker or an older owner) may have sent the request, the
 *       result is looked up first: found → recorded and answered {@link AlreadyApplied} (the effect
 *       came from that earlier attempt, not from this call); definitely not found → sent; lookup
 *       unavailable → {@link ApiOutcomeUnknownException}, nothing sent. Without a lookup request it
 *       stays in doubt ({@link ApiOutcomeUnknownException}, nothing sent) unless {@link
 *       Builder#resendInDoubtWithoutLookup} opts in to re-sending under the same key, relying on
 *       the API replaying the stored result for a repeated key.
 *   <li>Every request, on every path, carries the key {@link IdempotencyKeys#of}(name, resource,
 *       operation) and the bearer token. Lost answers (timeouts, resets) and the statuses 409 (the
 *       same key is still processing), 429, 500, 502, 503 and 504 are retried with exponential
 *       backoff and jitter. Such an attempt may have reached the API, so with a lookup request
 *       every re-send asks it first ({@link ResendRule#LOOKUP_FIRST}): found → recorded, nothing
 *       more sent; definitely not found → re-sent under the same key; no definite answer → {@link
 *       ApiOutcomeUnknownException}, nothing more sent. Without a lookup the re-sends go out blind,
 *       which {@link Builder#build} allows only if {@link Builder#keysHonoured} declares that the
 *       API replays a repeated key ({@link ResendRule#KEYS_HONOURED}) or there is one attempt
 *       ({@link ResendRule#SEND_ONCE}).
 *   <li>Before every retry, and before the first attempt if more than a second passed since the
 *       intent was recorded (a stalled worker), the intent is read again: completed meanwhile →
 *       nothing more is sent, {@link AlreadyApplied} with the recorded receipt; begun by a newer
 *       owner → nothing more is sent, {@link RejectedStale} if nothing of this call may have
 *       reached the API, else {@link ApiOutcomeUnknownException}; older than the {@linkplain
 *       Builder#keyRetention key retention} while an earlier attempt may have landed → nothing more
 *       is sent, {@link ApiOutcomeUnknownException}.
 *   <li>A 2xx answer is recorded with {@link IntentStore#complete} and its outcome returned (see
 *       below for {@link Applied} or {@link AlreadyApplied}). The receipt holds {@code
 *       http-status}, {@code idempotency-key} and the configured {@linkplain Builder#receiptField
 *       receipt fields}. A 2xx whose body is too large or not JSON is still recorded as applied
 *       (the call landed), with {@code response-error} saying why the fields are missing.
 *   <li>422 (the API holds another payload under the key: our own fingerprint check passed, so it
 *       is not this request's) and other 4xx are definite refusals: {@link ApiRejectedException},
 *       with {@link ApiRejectedException#outcomeUnknown()} if an earlier attempt, of this call or
 *       an earlier one, may have landed; the intent stays.
 *   <li>Retries exhausted without a definite answer → the result is looked up: found → recorded;
 *       otherwise {@link ApiOutcomeUnknownException}. If no attempt could have reached the API
 *       (refused connections, open breaker) and no earlier attempt may have sent it, {@link
 *       ApiUnreachableException} (outcome known: nothing applied).
 *   <li>A file body whose size or last-modified time changed since the request's fingerprint was
 *       taken is never sent: the attempt is refused before any byte goes out, with {@link
 *       ApiOutcomeUnknownException} if an earlier attempt may have reached the API, else a {@link
 *       StoreException} whose outcome is known.
 * </ol>
 *
 * <p>{@link Applied} or {@link AlreadyApplied}: a write answers {@link Applied} only if the effect
 * can only be this call's: no earlier call may have sent the operation, or the API said it never
 * saw it before this call sent it. It answers {@link AlreadyApplied} when the result was found or
 * recorded without this call sending (a lookup found it, the intent was completed by someone else
 * meanwhile) and when this call re-sent without a lookup ({@link
 * Builder#resendInDoubtWithoutLookup}), where the API may have replayed an earlier attempt's
 * result.
 *
 * <p>What this cannot prevent: a worker whose intent was recorded before a newer owner registered
 * can still send its request during the takeover (the API cannot compare epochs). The re-reading of
 * the intent before each attempt narrows that window but does not close it: a request already on
 * the wire, or sent right after its last check, still lands after the takeover, and only the shared
 * idempotency key keeps it from applying twice. An API that ignores idempotency keys applies a
 * blind re-send twice (only under {@link Builder#keysHonoured}, a declaration this cannot check);
 * with a lookup, a request still in flight when the lookup answers "not found" can still land
 * besides the re-sent one. For an API that forgets keys after some hours, set {@link
 * Builder#keyRetention}: past it, an operation whose lookup does not find it is never re-sent.
 *
 * <p>The bearer token is read from an environment variable when the destination is built; its value
 * never appears in {@link #toString()}, messages, exceptions or logs. Thread-safe.
 */
public final class HttpApiDestination implements Destination<ApiRequest> {

  /** The default idempotency key header, as in the IETF httpapi draft. */
  public static final String DEFAULT_IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

  /**
   * The default {@linkplain Builder#attemptTimeLimit attempt time limit}: 3 s. One write, its
   * sends, backoffs and lookups together, is bounded by the {@linkplain #DEFAULT_CALL_TIME_LIMIT
   * call time limit}.
   */
  public static final Duration DEFAULT_ATTEMPT_TIME_LIMIT = Duration.ofSeconds(3);

  /**
   * The default {@linkplain Builder#callTimeLimit call time limit} of one write: 20 s ({@link
   * ResilienceSettings#DEFAULT_CALL_TIME_LIMIT}), inside the default lease ttl of 30 s.
   */
  public static final Duration DEFAULT_CALL_TIME_LIMIT = ResilienceSettings.DEFAULT_CALL_TIME_LIMIT;

  /**
   * The longest connect timeout of the default HTTP client: 2 s; with a shorter attempt time limit
   * it is that limit ({@link ResilienceSettings#defaultConnectTimeout}), so that an API that cannot
   * be reached is told apart from one that may have received the request.
   */
  public static final Duration DEFAULT_CONNECT_TIMEOUT =
      ResilienceSettings.LONGEST_DEFAULT_CONNECT_TIMEOUT;

  /** Default bound of a response body that is read: 1 MiB. */
  public static final int DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

  /**
   * A first attempt that starts longer than this after {@code begin} returned (a stall between
   * recording the intent and sending) reads the intent again first; retries always do.
   */
  static final Duration STALL_BEFORE_RECHECK = Duration.ofSeconds(1);

  private static final System.Logger LOG = System.getLogger(HttpApiDestination.class.getName());
  private static final int MAX_EXCERPT = 200;

  private final String name;
  private final URI baseUri;
  private final IntentStore intents;
  private final ApiCalls calls;
  private final ApiCalls.LookupRequest lookup;
  private final ReceiptFields fields;
  private final BearerToken bearer;
  private final Clock clock;
  private final Optional<Duration> keyRetention;
  private final boolean resendInDoubtWithoutLookup;
  private final ResendRule resendRule;
  private final String keyHeader;
  private final int maxAttempts;
  private final LongSupplier nanoTime;
  private final Set<Capability> capabilities;

  private HttpApiDestination(Builder builder, ApiCalls calls, BearerToken bearer) {
    this.name = builder.name;
    this.baseUri = builder.baseUri;
    this.intents = builder.intentStore;
    this.calls = calls;
    this.lookup = builder.lookup;
    this.fields = new ReceiptFields(builder.fields);
    this.bearer = bearer;
    this.clock = builder.clock;
    this.keyRetention = Optional.ofNullable(builder.keyRetention);
    this.resendInDoubtWithoutLookup = builder.resendInDoubtWithoutLookup;
    this.resendRule = builder.resendRule();
    this.keyHeader = builder.keyHeader;
    this.maxAttempts = builder.resilience.maxAttempts();
    this.nanoTime = builder.nanoTime;
    EnumSet<Capability> set = EnumSet.of(Capability.FENCED_INTENT, Capability.IDEMPOTENCY_KEY);
    if (lookup != null) {
      set.add(Capability.RESULT_LOOKUP);
    }
    this.capabilities = Set.copyOf(set);
  }

  /** A builder; {@link Builder#name}, {@link Builder#baseUri} and the intent store are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * What this destination does before it sends a request again after an attempt that may have
   * reached the API (a lost answer, or an answer worth another attempt): the rule {@code fenceline
   * doctor} prints. {@link Builder#build} refuses a configuration that re-sends without a lookup
   * unless {@link Builder#keysHonoured} declares that the API replays a repeated key.
   */
  public enum ResendRule {
    /**
     * A {@linkplain Builder#lookup lookup request} is configured: every re-send, in this call or a
     * later one, asks it first. Found → recorded, never sent again; a definite "not found" → sent
     * again under the same key; no definite answer → in doubt, nothing sent.
     */
    LOOKUP_FIRST,
    /**
     * No lookup, and {@link Builder#keysHonoured keysHonoured(true)}: the attempts of one call are
     * re-sent under the same key without asking, relying on the API to replay the stored result. An
     * operation a call left in doubt is re-sent by a later call only with {@link
     * Builder#resendInDoubtWithoutLookup}.
     */
    KEYS_HONOURED,
    /**
     * No lookup and {@link Builder#maxAttempts maxAttempts(1)}: a request is sent at most once per
     * call, and an operation that may have reached the API is never sent again (in doubt).
     */
    SEND_ONCE
  }

  /** The rule this destination re-sends by; see {@link ResendRule}. */
  public ResendRule resendRule() {
    return resendRule;
  }

  /**
   * The {@linkplain #resendRule rule} in force in one sentence, with what it can still let through,
   * e.g. for {@code fenceline doctor}. Holds no secrets.
   */
  public String describeResendRule() {
    return switch (resendRule) {
      case LOOKUP_FIRST ->
          "lookup first: every re-send after an attempt that may have reached the API asks GET "
              + lookup.pathTemplate()
              + " first (found: recorded, not sent again; not found: sent again under the same "
              + keyHeader
              + "; no definite answer: in doubt, nothing sent); still possible on an API that"
              + " ignores keys: a request still in flight when the lookup answers \"not found\""
              + " lands besides the re-sent one";
      case KEYS_HONOURED ->
          "keys honoured (declared, no lookup): up to "
              + maxAttempts
              + " attempts per call under the same "
              + keyHeader
              + " without asking the API; an API that ignores or has forgotten the key applies it"
              + " again on every re-send; "
              + (resendInDoubtWithoutLookup
                  ? "a later call re-sends an operation left in doubt the same way"
                      + " (resend-in-doubt-without-lookup)"
                  : "an operation left in doubt stays in doubt, a later call sends nothing");
      case SEND_ONCE ->
          "send once (no lookup, one attempt): a request that may have reached the API is never"
              + " sent again; it stays in doubt for someone to resolve with the API's operators";
    };
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * {@link Capability#FENCED_INTENT} and {@link Capability#IDEMPOTENCY_KEY}, and {@link
   * Capability#RESULT_LOOKUP} when a lookup request is configured.
   */
  @Override
  public Set<Capability> capabilities() {
    return capabilities;
  }

  /** The circuit breaker every request of this destination goes through. */
  public CircuitBreaker circuitBreaker() {
    return calls.breaker();
  }

  /** Delegates to the intent store. */
  @Override
  public RegisterOutcome register(FencingToken token) {
    return intents.register(token);
  }

  /**
   * Sends {@code request} for {@code operation} as described in the class comment.
   *
   * @throws dev.fenceline.spi.OperationConflictException if the operation was begun with another
   *     request; nothing was sent
   * @throws ApiRejectedException if the API refused the request (4xx)
   * @throws ApiOutcomeUnknownException if the request may have landed and no lookup could tell
   * @throws ApiUnreachableException if no request could have reached the API
   * @throws StoreException if the intent store failed
   */
  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, ApiRequest request) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(request, "request is null");
    // One deadline for the whole call: the lookups and every send share it.
    ApiCalls.Deadline deadline = calls.deadline();
    IntentOutcome begun = intents.begin(token, operation, request.fingerprint());
    if (begun instanceof RejectedStale stale) {
      return stale;
    }
    long begunAt = nanoTime.getAsLong();
    Intent intent = ((IntentRecorded) begun).intent();
    if (intent.completed()) {
      return new AlreadyApplied(intent.receipt().orElseThrow());
    }
    ResourceId resource = token.resource();
    String key = IdempotencyKeys.of(name, resource, operation);
    boolean earlierMayHaveSent = intent.mayHaveBeenSent();
    Optional<String> keyMayBeForgotten =
        earlierMayHaveSent ? keyMayBeForgotten(intent) : Optional.empty();
    if (keyMayBeForgotten.isPresent() && lookup == null) {
      throw inDoubt(
          resource,
          operation,
          key,
          keyMayBeForgotten.get()
              + ", and no lookup request is configured: re-sending under the same key could apply"
              + " it twice; nothing was sent now",
          null);
    }
    if (earlierMayHaveSent && lookup == null && !resendInDoubtWithoutLookup) {
      throw inDoubt(
          resource,
          operation,
          key,
          intent.attempts()
              - 1
              + " earlier attempt(s) may have sent it and no lookup request is configured to ask"
              + " the API whether it saw it; nothing was sent now (configure a lookup, or opt in"
              + " with resendInDoubtWithoutLookup(true) if the API replays the stored result for a"
              + " repeated key)",
          null);
    }
    // Whether an effect can only come from this call: true on a first attempt and after the API
    // said it never saw the operation; false after a blind re-send (see the class comment).
    boolean effectIsThisCalls = !earlierMayHaveSent;
    if (earlierMayHaveSent && lookup != null) {
      ApiCalls.LookupResult found = calls.lookup(lookup, key, resource, operation, deadline);
      if (found instanceof ApiCalls.Found record) {
        // The effect came from an earlier attempt, not from this call: report it as such.
        WriteOutcome completed = complete(token, operation, key, lookupAttributes(key, record));
        return new AlreadyApplied(receiptOf(completed));
      }
      if (found instanceof ApiCalls.Unavailable unavailable) {
        throw inDoubt(
            resource,
            operation,
            key,
            intent.attempts()
                - 1
                + " earlier attempt(s) may have sent it and "
                + unavailable.reason()
                + "; nothing was sent now",
            unavailable.cause());
      }
      if (keyMayBeForgotten.isPresent()) {
        throw inDoubt(
            resource,
            operation,
            key,
            keyMayBeForgotten.get()
                + ": the lookup did not find it, but the API may have forgotten the key of an"
                + " earlier attempt that landed, and re-sending could apply it twice; nothing was"
                + " sent now",
            null);
      }
      LOG.log(
          System.Logger.Level.INFO,
          () ->
              "The API never saw operation "
                  + operation
                  + " of "
                  + resource
                  + " (key "
                  + key
                  + "); sending it again under the same key");
      effectIsThisCalls = true;
    }
    ApiCalls.SendReport report;
    try {
      report =
          calls.send(
              key,
              request,
              recheck(
                  token, operation, key, begunAt, earlierMayHaveSent, effectIsThisCalls, deadline),
              deadline);
    } catch (StopSending stop) {
      return stop.outcome;
    }
    return finish(token, operation, key, report, earlierMayHaveSent, effectIsThisCalls, deadline);
  }

  /** Thrown by {@link #recheck} to stop sending and answer {@code outcome} instead. */
  private static final class StopSending extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient WriteOutcome outcome;

    StopSending(WriteOutcome outcome) {
      super(null, null, false, false);
      this.outcome = outcome;
    }
  }

  /**
   * The check before each attempt (item of the class comment on stale workers): before every retry,
   * and before the first attempt if more than {@link #STALL_BEFORE_RECHECK} passed since {@code
   * begin} returned, the intent is read again. Completed meanwhile → stop, {@link AlreadyApplied}.
   * Begun by a newer owner, or a newer epoch registered for the resource → stop: {@link
   * RejectedStale} if nothing of this call may have reached the API, else in doubt. Older than the
   * key retention while an earlier attempt may have landed → stop, in doubt.
   */
  private ApiCalls.BeforeAttempt recheck(
      FencingToken token,
      OperationId operation,
      String key,
      long begunAt,
      boolean earlierMayHaveSent,
      boolean effectIsThisCalls,
      ApiCalls.Deadline deadline) {
    ResourceId resource = token.resource();
    return (attempt, reachedNow) -> {
      if (attempt == 1 && nanoTime.getAsLong() - begunAt <= STALL_BEFORE_RECHECK.toNanos()) {
        return;
      }
      boolean mayHaveLanded = reachedNow || earlierMayHaveSent;
      Intent now;
      try {
        now =
            intents
                .lookup(resource, operation)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "the intent of operation "
                                + operation
                                + " of "
                                + resource
                                + " is gone"));
      } catch (StoreException e) {
        if (!mayHaveLanded) {
          throw e;
        }
        throw inDoubt(
            resource,
            operation,
            key,
            "the intent store failed when it was read again before attempt "
                + attempt
                + " ("
                + e.getMessage()
                + ") and an earlier attempt may have sent it; attempt "
                + attempt
                + " was not sent",
            e);
      }
      if (now.completed()) {
        throw new StopSending(new AlreadyApplied(now.receipt().orElseThrow()));
      }
      // A newer owner that began this operation, or registered the resource at all: this worker
      // is stale, and the newer owner looks the result up before it sends.
      Epoch newer = now.epoch();
      if (!newer.isNewerThan(token.epoch())) {
        newer = intents.currentEpoch(resource);
      }
      if (newer.isNewerThan(token.epoch())) {
        if (!reachedNow) {
          throw new StopSending(new RejectedStale(resource, token.epoch(), newer));
        }
        throw inDoubt(
            resource,
            operation,
            key,
            "a newer owner (epoch "
                + newer
                + ") took the resource over before attempt "
                + attempt
                + " of "
                + token
                + ", whose earlier attempt may have reached the API; attempt "
                + attempt
                + " was not sent and the newer owner looks the result up first",
            null);
      }
      if (mayHaveLanded) {
        Optional<String> forgotten = keyMayBeForgotten(now);
        if (forgotten.isPresent()) {
          throw inDoubt(
              resource,
              operation,
              key,
              forgotten.get()
                  + ": an earlier attempt may have landed under a key the API no longer keeps, and"
                  + " another attempt could apply it twice; attempt "
                  + attempt
                  + " was not sent",
              null);
        }
        if (attempt > 1 && lookup != null) {
          lookUpBeforeResend(token, operation, key, attempt, effectIsThisCalls, deadline);
        }
      }
    };
  }

  /**
   * The lookup before re-sending within a call, after an attempt that may have reached the API: an
   * API that ignores keys would apply a blind re-send again. Found → recorded, nothing more sent
   * (thrown as {@link StopSending}); no definite answer → in doubt, nothing more sent; definitely
   * not found → returns, and attempt {@code attempt} goes out under the same key.
   */
  private void lookUpBeforeResend(
      FencingToken token,
      OperationId operation,
      String key,
      int attempt,
      boolean effectIsThisCalls,
      ApiCalls.Deadline deadline) {
    ResourceId resource = token.resource();
    ApiCalls.LookupResult found = calls.lookup(lookup, key, resource, operation, deadline);
    if (found instanceof ApiCalls.Found record) {
      throw new StopSending(
          complete(token, operation, key, lookupAttributes(key, record), effectIsThisCalls));
    }
    if (found instanceof ApiCalls.Unavailable unavailable) {
      throw inDoubt(
          resource,
          operation,
          key,
          "an earlier attempt may have reached the API and "
              + unavailable.reason()
              + "; attempt "
              + attempt
              + " was not sent",
          unavailable.cause());
    }
    LOG.log(
        System.Logger.Level.DEBUG,
        () ->
            "The API never saw operation "
                + operation
                + " of "
                + resource
                + " (key "
                + key
                + "); sending attempt "
                + attempt
                + " under the same key");
  }

  /**
   * Why the API may have forgotten the key of an earlier attempt: the intent was first recorded
   * longer ago than the configured key retention (by the intent store's clock against this
   * destination's clock).
   */
  private Optional<String> keyMayBeForgotten(Intent intent) {
    if (keyRetention.isEmpty()) {
      return Optional.empty();
    }
    Duration age = Duration.between(intent.recordedAt(), clock.instant());
    if (age.compareTo(keyRetention.get()) < 0) {
      return Optional.empty();
    }
    return Optional.of(
        "its first attempt was recorded at "
            + intent.recordedAt()
            + ", "
            + age.withNanos(0)
            + " ago, longer than the API keeps idempotency keys ("
            + keyRetention.get()
            + ")");
  }

  private WriteOutcome finish(
      FencingToken token,
      OperationId operation,
      String key,
      ApiCalls.SendReport report,
      boolean earlierMayHaveSent,
      boolean effectIsThisCalls,
      ApiCalls.Deadline deadline) {
    ResourceId resource = token.resource();
    ApiCalls.Response response = report.response();
    boolean mayHaveLandedBefore = report.lostBeforeLast() || earlierMayHaveSent;
    if (report.failure() instanceof ApiRequest.BodyChangedException changed) {
      String what =
          "request body file "
              + ApiRequest.quote(changed.file().toString())
              + " "
              + changed.getMessage()
              + ", so attempt "
              + (report.attempts() + 1)
              + " was not sent";
      if (report.mayHaveReached() || earlierMayHaveSent) {
        throw inDoubt(
            resource,
            operation,
            key,
            what
                + ", and an earlier attempt may have reached the API (put the file back as it was"
                + " when the request was created before retrying)",
            changed);
      }
      throw new StoreException(
          "Cannot send operation "
              + operation
              + " of "
              + resource
              + " to "
              + name
              + ": "
              + what
              + " and no request of it reached the API (keep the file unchanged until the"
              + " operation is applied: put it back and retry with the same operation ID, or send"
              + " the new content under a new operation ID)",
          changed,
          false);
    }
    if (response != null && response.successful()) {
      return complete(token, operation, key, responseAttributes(key, response), effectIsThisCalls);
    }
    if (response != null && response.status() == 422) {
      // Our own fingerprint check passed, so the API holds something else under our key.
      throw new ApiRejectedException(
          "Cannot apply operation "
              + operation
              + " of "
              + resource
              + " at "
              + name
              + ": the API answered HTTP 422, it holds another payload under idempotency key "
              + key
              + excerpt(response)
              + (mayHaveLandedBefore
                  ? "; an earlier attempt of this operation may have landed"
                  : "")
              + " (an operation ID names exactly one request; ask the API's operators what they"
              + " hold under that key, and give a different request its own operation ID)",
          422,
          mayHaveLandedBefore);
    }
    if (response != null
        && response.status() >= 400
        && response.status() < 500
        && !ApiCalls.RETRYABLE_STATUSES.contains(response.status())) {
      throw new ApiRejectedException(
          "Cannot apply operation "
              + operation
              + " of "
              + resource
              + " at "
              + name
              + ": the API refused it with HTTP "
              + response.status()
              + excerpt(response)
              + (mayHaveLandedBefore
                  ? "; an earlier attempt of this operation may have landed"
                  : "")
              + " (fix the request or the credentials; the intent stays, so a retry with the same"
              + " operation ID looks the result up first)",
          response.status(),
          mayHaveLandedBefore);
    }
    if (!report.mayHaveReached()) {
      String why =
          report.failure() instanceof CallNotPermittedException
              ? "the circuit breaker is open"
              : report.failure() instanceof ApiCalls.CallTimeLimitPassed passed
                  ? "no attempt reached it before " + passed.getMessage()
                  : "every attempt failed to connect (" + ApiCalls.describe(report.failure()) + ")";
      if (earlierMayHaveSent) {
        throw inDoubt(
            resource,
            operation,
            key,
            why + " now, and an earlier attempt may have sent it",
            report.failure());
      }
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "API " + name + " unreachable for " + resource + "/" + operation + ": " + why);
      throw new ApiUnreachableException(
          "Cannot apply operation "
              + operation
              + " of "
              + resource
              + " at "
              + name
              + ": the API at "
              + baseUri
              + " is unreachable, "
              + why
              + "; no request reached it and nothing is recorded as applied (retry later with the"
              + " same operation ID)",
          report.failure());
    }
    String what =
        response != null
            ? "the last of " + report.attempts() + " attempt(s) answered HTTP " + response.status()
            : "the answer of attempt "
                + report.attempts()
                + " was lost ("
                + ApiCalls.describe(report.failure())
                + ")";
    if (lookup == null) {
      throw inDoubt(resource, operation, key, what + " and no lookup request is configured", null);
    }
    ApiCalls.LookupResult found = calls.lookup(lookup, key, resource, operation, deadline);
    if (found instanceof ApiCalls.Found record) {
      return complete(token, operation, key, lookupAttributes(key, record), effectIsThisCalls);
    }
    String lookupSaid =
        found instanceof ApiCalls.Unavailable unavailable
            ? unavailable.reason()
            : "the lookup did not find it, but a request still in flight may land";
    throw inDoubt(
        resource,
        operation,
        key,
        what + " and " + lookupSaid,
        report.failure() != null
            ? report.failure()
            : found instanceof ApiCalls.Unavailable u ? u.cause() : null);
  }

  /**
   * Records the result; answers {@link AlreadyApplied} instead of {@link Applied} unless {@code
   * effectIsThisCalls} (the rule in the class comment).
   */
  private WriteOutcome complete(
      FencingToken token,
      OperationId operation,
      String key,
      Map<String, String> attributes,
      boolean effectIsThisCalls) {
    WriteOutcome recorded = complete(token, operation, key, attributes);
    if (recorded instanceof Applied applied && !effectIsThisCalls) {
      return new AlreadyApplied(applied.receipt());
    }
    return recorded;
  }

  private WriteOutcome complete(
      FencingToken token, OperationId operation, String key, Map<String, String> attributes) {
    try {
      return intents.complete(token, operation, attributes);
    } catch (StoreException e) {
      throw new ApiOutcomeUnknownException(
          "Cannot record the result of operation "
              + operation
              + " of "
              + token.resource()
              + " at "
              + name
              + ": the API applied it under idempotency key "
              + key
              + " but the intent store failed ("
              + e.getMessage()
              + "); retry with the same operation ID, which looks the result up and records it",
          e,
          token.resource(),
          operation,
          key);
    }
  }

  private Map<String, String> responseAttributes(String key, ApiCalls.Response response) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("http-status", Integer.toString(response.status()));
    attributes.put("idempotency-key", key);
    if (response.truncated()) {
      attributes.put(
          "response-error",
          "the body is larger than " + response.body().length + " bytes; fields not read");
      return attributes;
    }
    if (response.bodyError().isPresent()) {
      attributes.put("response-error", response.bodyError().get() + "; fields not read");
      return attributes;
    }
    if (response.body().length == 0) {
      if (!fields.isEmpty()) {
        attributes.put("response-error", "the body is empty; fields not read");
      }
      return attributes;
    }
    Optional<JsonNode> document = ApiCalls.parse(response.body());
    if (document.isEmpty()) {
      attributes.put("response-error", "the body is not JSON; fields not read");
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "API "
                  + name
                  + " answered HTTP "
                  + response.status()
                  + " with a body that is not JSON for key "
                  + key
                  + "; recording the call as applied without receipt fields");
      return attributes;
    }
    fields.addTo(document.get(), attributes);
    return attributes;
  }

  private Map<String, String> lookupAttributes(String key, ApiCalls.Found found) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("idempotency-key", key);
    attributes.put("found-by", "lookup");
    fields.addTo(found.record(), attributes);
    return attributes;
  }

  private ApiOutcomeUnknownException inDoubt(
      ResourceId resource, OperationId operation, String key, String why, Throwable cause) {
    String message =
        "Cannot tell whether operation "
            + operation
            + " of "
            + resource
            + " landed at "
            + name
            + ": "
            + why
            + " (the intent stays in doubt under idempotency key "
            + key
            + "; retry with the same operation ID to look it up and re-send under the same key"
            + " only if the API never saw it, or ask the API's operators about that key)";
    LOG.log(System.Logger.Level.WARNING, message);
    return new ApiOutcomeUnknownException(message, cause, resource, operation, key);
  }

  private String excerpt(ApiCalls.Response response) {
    if (response.body().length == 0) {
      return "";
    }
    String text = new String(response.body(), StandardCharsets.UTF_8);
    if (bearer != null) {
      text = bearer.redact(text);
    }
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .limit(MAX_EXCERPT)
        .forEach(c -> out.appendCodePoint(c < 0x20 || c == 0x7f ? ' ' : c));
    if (text.codePointCount(0, text.length()) > MAX_EXCERPT) {
      out.append("...");
    }
    return ": \"" + out.toString().strip() + "\"";
  }

  private static Receipt receiptOf(WriteOutcome outcome) {
    if (outcome instanceof Applied applied) {
      return applied.receipt();
    }
    if (outcome instanceof AlreadyApplied already) {
      return already.receipt();
    }
    throw new IllegalStateException("complete never answers " + outcome);
  }

  /**
   * The receipt of {@code operation}: the intent store's, if the operation is completed. If its
   * intent is pending and a lookup request is configured, the API is asked: found → a receipt built
   * from the lookup (not recorded here, since recording needs a token; the next {@link #write} of
   * the operation records it without sending); not found → empty. Empty for a pending intent means
   * "not applied as far as the API knows now": a worker already past {@link IntentStore#begin} may
   * still send it, so it is no proof that it never will be applied.
   *
   * @throws ApiOutcomeUnknownException if the intent is pending and no lookup is configured or it
   *     gave no definite answer
   */
  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    Optional<Intent> intent = intents.lookup(resource, operation);
    if (intent.isEmpty()) {
      return Optional.empty();
    }
    if (intent.get().completed()) {
      return intent.get().receipt();
    }
    String key = IdempotencyKeys.of(name, resource, operation);
    if (lookup == null) {
      throw inDoubt(
          resource,
          operation,
          key,
          "its intent is pending and no lookup request is configured",
          null);
    }
    ApiCalls.LookupResult found = calls.lookup(lookup, key, resource, operation);
    if (found instanceof ApiCalls.Found record) {
      return Optional.of(
          new Receipt(
              name,
              resource,
              operation,
              intent.get().epoch(),
              clock.instant(),
              lookupAttributes(key, record)));
    }
    if (found instanceof ApiCalls.Unavailable unavailable) {
      throw inDoubt(
          resource,
          operation,
          key,
          "its intent is pending and " + unavailable.reason(),
          unavailable.cause());
    }
    return Optional.empty();
  }

  /** Delegates to the intent store. */
  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return intents.currentEpoch(resource);
  }

  @Override
  public String toString() {
    return "HttpApiDestination["
        + name
        + " at "
        + baseUri
        + (bearer == null ? "" : ", " + bearer)
        + ", intents in "
        + intents.storeId()
        + "]";
  }

  /**
   * Builds an {@link HttpApiDestination}; every setter validates its value and {@link #build}
   * checks what is required, with a {@link ConfigurationException} naming the value and the fix.
   */
  public static final class Builder {
    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]*)}");
    private static final Set<String> PLACEHOLDERS = Set.of("key", "resource", "operation");
    private static final Set<String> RESERVED_HEADERS =
        Set.of(
            "authorization",
            "content-type",
            "content-length",
            "host",
            "connection",
            "expect",
            "upgrade",
            "transfer-encoding");

    private String name;
    private URI baseUri;
    private IntentStore intentStore;
    private String keyHeader = DEFAULT_IDEMPOTENCY_KEY_HEADER;
    private String bearerVariable;
    private Function<String, String> environment = System::getenv;
    private Duration attemptTimeout = DEFAULT_ATTEMPT_TIME_LIMIT;
    private final ResilienceSettings resilience = new ResilienceSettings();
    private final Map<String, JsonPointer> fields = new LinkedHashMap<>();
    private ApiCalls.LookupRequest lookup;
    private HttpClient httpClient;
    private Clock clock = Clock.systemUTC();
    private Duration keyRetention;
    private boolean resendInDoubtWithoutLookup;
    private boolean keysHonoured;
    private LongSupplier nanoTime = System::nanoTime;
    private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

    private Builder() {}

    /** The destination's name (see {@link Destination#NAME}); the intent store's must match. */
    public Builder name(String name) {
      requireNonNull(name, "name is null");
      try {
        this.name = Destination.validateName(name);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(e.getMessage(), e);
      }
      return this;
    }

    /**
     * The API's base URI, {@code http} or {@code https} with a host and no query, fragment or
     * credentials; request paths are appended to it.
     */
    public Builder baseUri(URI baseUri) {
      requireNonNull(baseUri, "baseUri is null");
      String scheme = baseUri.getScheme();
      if (scheme == null
          || !(scheme.equals("http") || scheme.equals("https"))
          || baseUri.getHost() == null
          || baseUri.getRawQuery() != null
          || baseUri.getRawFragment() != null) {
        throw new ConfigurationException(
            "Cannot use API base URI "
                + ApiRequest.quote(redact(baseUri))
                + ": expected an http or https URL with a host and no query or fragment (e.g."
                + " https://api.example.com/v1)");
      }
      if (baseUri.getRawUserInfo() != null) {
        throw new ConfigurationException(
            "Cannot use API base URI "
                + ApiRequest.quote(redact(baseUri))
                + ": it carries user information; give the token with bearerTokenFromEnv, never"
                + " in the URL");
      }
      this.baseUri = baseUri;
      return this;
    }

    /** Where intents are recorded (required), e.g. {@code JdbcStore.intentStore(name)}. */
    public Builder intentStore(IntentStore intentStore) {
      this.intentStore = requireNonNull(intentStore, "intentStore is null");
      return this;
    }

    /** The idempotency key header; default {@value #DEFAULT_IDEMPOTENCY_KEY_HEADER}. */
    public Builder idempotencyKeyHeader(String header) {
      requireNonNull(header, "header is null");
      if (!HEADER_NAME.matcher(header).matches()
          || RESERVED_HEADERS.contains(header.toLowerCase(java.util.Locale.ROOT))) {
        throw new ConfigurationException(
            "Cannot use idempotency key header "
                + ApiRequest.quote(header)
                + ": expected an HTTP header name that the destination does not set otherwise"
                + " (e.g. Idempotency-Key)");
      }
      this.keyHeader = header;
      return this;
    }

    /**
     * Sends {@code Authorization: Bearer <token>} with the token read from environment variable
     * {@code variable} when the destination is built. The value is never shown anywhere.
     */
    public Builder bearerTokenFromEnv(String variable) {
      this.bearerVariable = BearerToken.checkVariable(variable);
      return this;
    }

    /** Where {@link #bearerTokenFromEnv} reads variables; default {@link System#getenv(String)}. */
    public Builder environment(Function<String, String> environment) {
      this.environment = requireNonNull(environment, "environment is null");
      return this;
    }

    /**
     * The time limit of <em>one attempt</em>, the whole exchange up to the last byte of the
     * (bounded) answer, not of the whole write (that is the {@link #callTimeLimit}). A 2xx whose
     * body is cut off by the limit is still applied. Default 3 s; the default client's connect
     * timeout is 2 s, or this limit if it is shorter. A large file upload or an API that answers
     * slower than this needs a longer limit, and then a longer call time limit and lease ttl too.
     */
    public Builder attemptTimeLimit(Duration limit) {
      this.attemptTimeout = positive("attempt time limit", limit);
      return this;
    }

    /**
     * The overall bound of one write: its sends, the backoffs between them and its lookups (before
     * the send, before every re-send, after a lost answer) share it. Each attempt and lookup gets
     * at most what is left; once it has passed nothing more is sent, and the write ends in doubt
     * ({@link ApiOutcomeUnknownException}) if an attempt may have reached the API, else as
     * unreachable. Default 20 s ({@link #DEFAULT_CALL_TIME_LIMIT}): keep it below the lease ttl, so
     * that a worker learns of an API that stopped answering while its lease still runs. The intent
     * store's own calls are bounded by that store, not by this limit.
     */
    public Builder callTimeLimit(Duration limit) {
      resilience.callTimeLimit(limit);
      return this;
    }

    /**
     * Attempts per request, the first included, 1 to 20; default 3. Lookups use the same. More than
     * one needs a {@linkplain #lookup lookup request} (every re-send asks it first) or {@link
     * #keysHonoured keysHonoured(true)}.
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

    /**
     * The randomization factor of the backoff, in [0, 1): each wait is drawn from interval × (1 ±
     * jitter), so that workers retrying together spread out. Default 0.5.
     */
    public Builder jitter(double jitter) {
      resilience.jitter(jitter);
      return this;
    }

    /**
     * A circuit breaker built from {@code config}'s thresholds and windows. Fenceline reports IO
     * failures and 5xx answers as errors and everything else as successes; the config's record and
     * ignore predicates still filter them. By default: 50% failures over the last 10 calls (at
     * least 5), open for 30 s.
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
     * Records the value at JSON pointer {@code pointer} of the answer (or of the lookup's record)
     * as receipt attribute {@code attribute}, e.g. {@code receiptField("payment-id", "/id")}.
     */
    public Builder receiptField(String attribute, String pointer) {
      requireNonNull(attribute, "attribute is null");
      requireNonNull(pointer, "pointer is null");
      if (!attribute.matches("[a-z0-9][a-z0-9.-]{0,63}")
          || ReceiptFields.RESERVED.contains(attribute)) {
        throw new ConfigurationException(
            "Cannot use receipt field "
                + ApiRequest.quote(attribute)
                + ": names are 1 to 64 characters from [a-z0-9.-] and not one of "
                + new java.util.TreeSet<>(ReceiptFields.RESERVED)
                + " (e.g. payment-id)");
      }
      this.fields.put(attribute, pointer("receipt field " + attribute, pointer));
      return this;
    }

    /**
     * Looks results up with {@code GET} on {@code pathTemplate} (under the base URI), whose {@code
     * {key}}, {@code {resource}} and {@code {operation}} are replaced URL-encoded, e.g. {@code
     * /payments/by-key/{key}}: a 200 with a JSON record = found; 404, or a 200 whose body is empty,
     * {@code null}, {@code []} or {@code {}} = definitely not found; a 200 that is not JSON and
     * anything else = unavailable (nothing is sent while the lookup cannot tell). A wrapper such as
     * {@code {"data":[]}} is not empty: for a list endpoint, select the record with {@link
     * #lookup(String, String)} and check its key with {@link #lookup(String, String, String)}; a
     * path with a query is refused here for that reason.
     */
    public Builder lookup(String pathTemplate) {
      return lookup(pathTemplate, null);
    }

    /**
     * As {@link #lookup(String)}, where JSON pointer {@code recordPointer} selects the record in a
     * 200 answer (missing, null or an empty array or object = not found), e.g. {@code
     * lookup("/payments?key={key}", "/data/0")} for a list endpoint. Receipt fields are read from
     * that record. Null selects the whole answer.
     */
    public Builder lookup(String pathTemplate, String recordPointer) {
      return lookup(pathTemplate, recordPointer, null);
    }

    /**
     * As {@link #lookup(String, String)}, and a found record must hold this operation's idempotency
     * key at JSON pointer {@code keyPointer} (e.g. {@code "/idempotency_key"}). A record that holds
     * anything else there proves that the API ignores the lookup's key filter (a misspelt query
     * parameter, say, answers the newest payment of all): the answer is then treated as
     * unavailable, never as found or not found, and nothing is sent. Recommended for list
     * endpoints. Null checks nothing.
     */
    public Builder lookup(String pathTemplate, String recordPointer, String keyPointer) {
      requireNonNull(pathTemplate, "pathTemplate is null");
      Matcher placeholders = PLACEHOLDER.matcher(pathTemplate);
      boolean any = false;
      while (placeholders.find()) {
        if (!PLACEHOLDERS.contains(placeholders.group(1))) {
          throw new ConfigurationException(
              "Cannot use lookup path "
                  + ApiRequest.quote(pathTemplate)
                  + ": unknown placeholder {"
                  + placeholders.group(1)
                  + "} (use {key}, {resource} or {operation})");
        }
        any = true;
      }
      String sample = pathTemplate.replaceAll("\\{(key|resource|operation)}", "x");
      try {
        ApiRequest.postJson(sample, "{}");
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(
            "Cannot use lookup path "
                + ApiRequest.quote(pathTemplate)
                + ": give a path and query relative to the base URI, starting with / (e.g."
                + " /payments?idempotency_key={key})",
            e);
      }
      if (!any) {
        throw new ConfigurationException(
            "Cannot use lookup path "
                + ApiRequest.quote(pathTemplate)
                + ": it has no {key} placeholder, so it cannot find one operation (e.g."
                + " /payments?idempotency_key={key})");
      }
      if (recordPointer == null && pathTemplate.contains("?")) {
        throw new ConfigurationException(
            "Cannot use lookup path "
                + ApiRequest.quote(pathTemplate)
                + " without a record pointer: a lookup with a query answers a list, and a list"
                + " that does not hold the operation (e.g. {\"data\":[]}) would be taken as found"
                + " (select the record and check its key, e.g. lookup(\"/payments?idempotency_key"
                + "={key}\", \"/data/0\", \"/idempotency_key\"))");
      }
      this.lookup =
          new ApiCalls.LookupRequest(
              pathTemplate,
              recordPointer == null
                  ? Optional.empty()
                  : Optional.of(pointer("lookup record pointer", recordPointer)),
              keyPointer == null
                  ? Optional.empty()
                  : Optional.of(pointer("lookup key pointer", keyPointer)));
      return this;
    }

    /**
     * Without a {@linkplain #lookup lookup request}, whether an operation that an earlier attempt
     * may have sent is sent again under the same key. Default false: it stays in doubt ({@link
     * ApiOutcomeUnknownException}) and nothing is sent, since nothing can tell whether the API saw
     * it. True relies entirely on the API replaying the stored result for a repeated key, for as
     * long as it keeps keys: an API that ignores keys, or has forgotten the key, applies it twice.
     * Past the {@linkplain #keyRetention key retention} it is never re-sent, even with this set.
     * Without a lookup, {@link #build} refuses it unless {@link #keysHonoured keysHonoured(true)}.
     */
    public Builder resendInDoubtWithoutLookup(boolean resend) {
      this.resendInDoubtWithoutLookup = resend;
      return this;
    }

    /**
     * Declares that the API honours idempotency keys: a request repeated under the same key (the
     * {@linkplain #idempotencyKeyHeader key header}) replays the stored result instead of applying
     * again. Without a {@linkplain #lookup lookup request} this is what every re-send relies on, so
     * {@link #build} refuses more than one attempt, and {@link #resendInDoubtWithoutLookup}, unless
     * it is declared. With a lookup it changes nothing: every re-send asks the lookup first.
     * Default false. An API that ignores keys, or has forgotten the key, applies every such re-send
     * again.
     */
    public Builder keysHonoured(boolean honoured) {
      this.keysHonoured = honoured;
      return this;
    }

    /** The rule the destination built now would re-send by. */
    private ResendRule resendRule() {
      if (lookup != null) {
        return ResendRule.LOOKUP_FIRST;
      }
      return keysHonoured ? ResendRule.KEYS_HONOURED : ResendRule.SEND_ONCE;
    }

    /** The monotonic time source in nanoseconds for stalls before sending; tests only. */
    Builder nanoTime(LongSupplier nanoTime) {
      this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
      return this;
    }

    /**
     * The HTTP client; by default one with a {@linkplain #DEFAULT_CONNECT_TIMEOUT 2 s} connect
     * timeout that never follows redirects.
     */
    public Builder httpClient(HttpClient client) {
      this.httpClient = requireNonNull(client, "client is null");
      return this;
    }

    /**
     * How long the API keeps idempotency keys (for example 24 hours), if it forgets them at all.
     * Once an operation's first attempt is older than this, an earlier attempt may have landed
     * under a key the API no longer knows: a lookup that does not find the operation is then not
     * trusted, and the operation is never re-sent; it stays in doubt ({@link
     * ApiOutcomeUnknownException}) for someone to resolve with the API's operators. A lookup that
     * finds it still completes it. Unset (the default) means the API keeps keys for as long as
     * operations are retried. Ages are measured from the intent store's clock to this destination's
     * {@linkplain #clock clock}, so leave a margin for clock skew. A retry is not sent either once
     * the operation is older than this and an earlier attempt may have landed. {@link #build}
     * refuses a retention that one write's own attempts could outlast (max attempts × (attempt time
     * limit + max backoff)).
     */
    public Builder keyRetention(Duration retention) {
      this.keyRetention = positive("key retention", retention);
      return this;
    }

    /**
     * The clock for the age of intents ({@link #keyRetention}) and of receipts built by {@link
     * HttpApiDestination#lookup}; default UTC.
     */
    public Builder clock(Clock clock) {
      this.clock = requireNonNull(clock, "clock is null");
      return this;
    }

    /** How much of a response body is read, 1 KiB to 64 MiB; default 1 MiB. */
    public Builder maxResponseBytes(int bytes) {
      if (bytes < 1024 || bytes > 64 * 1024 * 1024) {
        throw new ConfigurationException(
            "Cannot use max response bytes "
                + bytes
                + ": expected 1024 to 67108864 (receipts need a few fields, not whole documents)");
      }
      this.maxResponseBytes = bytes;
      return this;
    }

    /**
     * Builds the destination; reads the bearer token from the environment now.
     *
     * @throws ConfigurationException if the name, base URI or intent store is missing, the intent
     *     store has another name, the token variable is unset, the key retention is not longer than
     *     max attempts × (attempt time limit + max backoff), or there is no lookup request and
     *     re-sends (max attempts above 1, {@link #resendInDoubtWithoutLookup}) without {@link
     *     #keysHonoured keysHonoured(true)}
     */
    public HttpApiDestination build() {
      if (name == null) {
        throw new ConfigurationException(
            "Cannot build an HTTP API destination: no name is set (call name(\"payments\"))");
      }
      if (baseUri == null) {
        throw new ConfigurationException(
            "Cannot build HTTP API destination "
                + name
                + ": no base URI is set (call baseUri(URI.create(\"https://api.example.com\")))");
      }
      if (intentStore == null) {
        throw new ConfigurationException(
            "Cannot build HTTP API destination "
                + name
                + ": no intent store is set (call intentStore(jdbcStore.intentStore(\""
                + name
                + "\")); intents are what fences the calls)");
      }
      if (!intentStore.name().equals(name)) {
        throw new ConfigurationException(
            "Cannot build HTTP API destination "
                + name
                + " with intent store "
                + ApiRequest.quote(intentStore.name())
                + ": the names must match, or the destination would see another one's intents"
                + " (open the intent store as \""
                + name
                + "\")");
      }
      if (lookup == null && !keysHonoured && resilience.maxAttempts() > 1) {
        throw new ConfigurationException(
            "Cannot build HTTP API destination "
                + name
                + ": no lookup request is configured and max attempts "
                + resilience.maxAttempts()
                + " re-sends a request whose answer was lost without asking the API, relying on it"
                + " to honour the idempotency key in header "
                + keyHeader
                + " (configure a lookup, e.g. lookup(\"/payments?idempotency_key={key}\","
                + " \"/data/0\", \"/idempotency_key\"), so that every re-send asks first; declare"
                + " keysHonoured(true) if the API replays the stored result for a repeated key; or"
                + " send once with maxAttempts(1))");
      }
      if (lookup == null && !keysHonoured && resendInDoubtWithoutLookup) {
        throw new ConfigurationException(
            "Cannot build HTTP API destination "
                + name
                + " with resendInDoubtWithoutLookup(true): without a lookup request it re-sends an"
                + " operation that may have landed, relying on the API to honour the idempotency key"
                + " in header "
                + keyHeader
                + " (declare keysHonoured(true) if the API replays the stored result for a repeated"
                + " key, or configure a lookup)");
      }
      if (keyRetention != null) {
        Duration ownRetries = resilience.longestRetrying(attemptTimeout);
        if (ownRetries.compareTo(keyRetention) >= 0) {
          throw new ConfigurationException(
              "Cannot build HTTP API destination "
                  + name
                  + " with key retention "
                  + keyRetention
                  + ": one write's own attempts can take up to "
                  + ownRetries
                  + " (max attempts × (attempt time limit "
                  + attemptTimeout
                  + " + max backoff)), so the API could forget the key while the write still"
                  + " retries (lower maxAttempts, attemptTimeLimit or the max backoff well below the"
                  + " key retention)");
        }
      }
      BearerToken bearer =
          bearerVariable == null ? null : BearerToken.fromEnvironment(bearerVariable, environment);
      HttpClient client =
          httpClient != null ? httpClient : ResilienceSettings.defaultClient(attemptTimeout);
      ApiCalls calls =
          new ApiCalls(
              client,
              baseUri,
              keyHeader,
              bearer,
              attemptTimeout,
              resilience.callTimeLimit(),
              nanoTime,
              resilience.retryConfig(),
              resilience.breaker(name),
              maxResponseBytes,
              name);
      return new HttpApiDestination(this, calls, bearer);
    }

    private static JsonPointer pointer(String what, String pointer) {
      try {
        return JsonPointer.compile(pointer);
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(
            "Cannot use JSON pointer "
                + ApiRequest.quote(pointer)
                + " for "
                + what
                + ": "
                + e.getMessage()
                + " (a pointer starts with /, e.g. /id or /data/0/id)",
            e);
      }
    }

    private static Duration positive(String what, Duration value) {
      requireNonNull(value, what + " is null");
      if (value.isNegative() || value.isZero()) {
        throw new ConfigurationException(
            "Cannot use " + what + " " + value + ": expected a positive duration (e.g. PT10S)");
      }
      return value;
    }

    private static String redact(URI uri) {
      return uri.getRawUserInfo() == null
          ? uri.toString()
          : uri.toString().replace(uri.getRawUserInfo() + "@", "***@");
    }
  }
}
