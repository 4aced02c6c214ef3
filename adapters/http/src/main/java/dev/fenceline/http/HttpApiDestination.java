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

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

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
  public static final String DEFAULT_IDEMPOTENCY_KEY_HEADER =
      EndpointSettings.DEFAULT_IDEMPOTENCY_KEY_HEADER;

  /**
   * The default {@linkplain Builder#attemptTimeLimit attempt time limit}: 3 s, as in the native
   * mode. One write, its sends, backoffs and lookups together, is bounded by the {@linkplain
   * #DEFAULT_CALL_TIME_LIMIT call time limit}.
   */
  public static final Duration DEFAULT_ATTEMPT_TIME_LIMIT =
      EndpointSettings.DEFAULT_ATTEMPT_TIME_LIMIT;

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
  public static final int DEFAULT_MAX_RESPONSE_BYTES = EndpointSettings.DEFAULT_MAX_RESPONSE_BYTES;

  private final IntentEndpoint endpoint;
  private final Set<Capability> capabilities;

  private HttpApiDestination(IntentEndpoint endpoint) {
    this.endpoint = endpoint;
    EnumSet<Capability> set = EnumSet.of(Capability.FENCED_INTENT, Capability.IDEMPOTENCY_KEY);
    if (endpoint.lookup().isPresent()) {
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
    return endpoint.resendRule();
  }

  /**
   * The {@linkplain #resendRule rule} in force in one sentence, with what it can still let through,
   * e.g. for {@code fenceline doctor}. Holds no secrets.
   */
  public String describeResendRule() {
    String keyHeader = endpoint.settings().idempotencyKeyHeader();
    return switch (endpoint.resendRule()) {
      case LOOKUP_FIRST ->
          "lookup first: every re-send after an attempt that may have reached the API asks GET "
              + endpoint.lookup().orElseThrow().pathTemplate()
              + " first (found: recorded, not sent again; not found: sent again under the same "
              + keyHeader
              + "; no definite answer: in doubt, nothing sent); still possible on an API that"
              + " ignores keys: a request still in flight when the lookup answers \"not found\""
              + " lands besides the re-sent one";
      case KEYS_HONOURED ->
          "keys honoured (declared, no lookup): up to "
              + endpoint.settings().maxAttempts()
              + " attempts per call under the same "
              + keyHeader
              + " without asking the API; an API that ignores or has forgotten the key applies it"
              + " again on every re-send; "
              + (endpoint.resendInDoubtWithoutLookup()
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
    return endpoint.name();
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
    return endpoint.calls().breaker();
  }

  /** Delegates to the intent store. */
  @Override
  public RegisterOutcome register(FencingToken token) {
    return endpoint.intents().register(token);
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
    return new IntentWrite(endpoint, token, operation, request).run();
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
    return endpoint.lookup(resource, operation);
  }

  /** Delegates to the intent store. */
  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return endpoint.intents().currentEpoch(resource);
  }

  @Override
  public String toString() {
    return "HttpApiDestination["
        + endpoint.name()
        + " at "
        + endpoint.settings().baseUri()
        + endpoint.settings().bearer().map(bearer -> ", " + bearer).orElse("")
        + ", intents in "
        + endpoint.intents().storeId()
        + "]";
  }

  /**
   * Builds an {@link HttpApiDestination}; every setter validates its value and {@link #build}
   * checks what is required, with a {@link ConfigurationException} naming the value and the fix and
   * carrying the YAML key of the http destination it is about ({@link
   * ConfigurationException#key()}). The settings this destination shares with {@link
   * NativeHttpDestination} are set through {@link EndpointBuilder}, the same way for both.
   */
  public static final class Builder extends EndpointBuilder<Builder> {
    private final IntentEndpoint.Builder intent = new IntentEndpoint.Builder(endpoint);

    private Builder() {
      super(EndpointSettings.Kind.INTENT);
    }

    @Override
    Builder self() {
      return this;
    }

    /** Where intents are recorded (required), e.g. {@code JdbcStore.intentStore(name)}. */
    public Builder intentStore(IntentStore intentStore) {
      intent.intentStore(intentStore);
      return this;
    }

    /**
     * Attempts per request, the first included, 1 to 20; default 3. Lookups use the same. More than
     * one needs a {@linkplain #lookup lookup request} (every re-send asks it first) or {@link
     * #keysHonoured keysHonoured(true)}.
     */
    public Builder maxAttempts(int maxAttempts) {
      endpoint.maxAttempts(maxAttempts);
      return this;
    }

    /**
     * Records the value at JSON pointer {@code pointer} of the answer (or of the lookup's record)
     * as receipt attribute {@code attribute}, e.g. {@code receiptField("payment-id", "/id")}.
     */
    public Builder receiptField(String attribute, String pointer) {
      intent.receiptField(attribute, pointer);
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
      intent.lookup(pathTemplate, recordPointer, keyPointer);
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
      intent.resendInDoubtWithoutLookup(resend);
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
      intent.keysHonoured(honoured);
      return this;
    }

    /** The monotonic time source in nanoseconds for stalls before sending; tests only. */
    Builder nanoTime(LongSupplier nanoTime) {
      endpoint.nanoTime(nanoTime);
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
      intent.keyRetention(retention);
      return this;
    }

    /**
     * The clock for the age of intents ({@link #keyRetention}) and of receipts built by {@link
     * HttpApiDestination#lookup}; default UTC.
     */
    public Builder clock(Clock clock) {
      intent.clock(clock);
      return this;
    }

    /** How much of a response body is read, 1 KiB to 64 MiB; default 1 MiB. */
    public Builder maxResponseBytes(int bytes) {
      endpoint.maxResponseBytes(bytes);
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
      return new HttpApiDestination(intent.build());
    }
  }
}
