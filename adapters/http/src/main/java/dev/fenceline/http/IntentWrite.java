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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentOutcome;
import dev.fenceline.spi.IntentRecorded;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One {@link HttpApiDestination#write}: its token, operation, request and idempotency key, its
 * deadline, and what it learns about earlier attempts on the way. The methods are the steps of the
 * class comment of {@link HttpApiDestination}, in order: {@link #run} records the intent, settles
 * what earlier calls may have sent, sends with {@link #beforeAttempt} asked before every attempt,
 * and {@link #finish}es with the answer. Not thread-safe: one per call.
 */
final class IntentWrite {

  /**
   * A first attempt that starts longer than this after {@code begin} returned (a stall between
   * recording the intent and sending) reads the intent again first; retries always do.
   */
  static final Duration STALL_BEFORE_RECHECK = Duration.ofSeconds(1);

  /** Thrown by the check before an attempt to stop sending and answer {@code outcome} instead. */
  private static final class StopSending extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient WriteOutcome outcome;

    StopSending(WriteOutcome outcome) {
      super(null, null, false, false);
      this.outcome = outcome;
    }
  }

  private final IntentEndpoint endpoint;
  private final FencingToken token;
  private final ResourceId resource;
  private final OperationId operation;
  private final ApiRequest request;
  private final String key;
  private final ApiCalls.Deadline deadline;
  private long begunAt;
  private boolean earlierMayHaveSent;
  // Whether an effect can only come from this call: true on a first attempt and after the API
  // said it never saw the operation; false after a blind re-send (see HttpApiDestination).
  private boolean effectIsThisCalls;

  /** A write that starts now: its deadline, shared by its lookups and sends, starts here. */
  IntentWrite(
      IntentEndpoint endpoint, FencingToken token, OperationId operation, ApiRequest request) {
    this.endpoint = requireNonNull(endpoint, "endpoint is null");
    this.token = requireNonNull(token, "token is null");
    this.operation = requireNonNull(operation, "operation is null");
    this.request = requireNonNull(request, "request is null");
    this.resource = token.resource();
    this.key = IdempotencyKeys.of(endpoint.name(), resource, operation);
    this.deadline = endpoint.calls().deadline();
  }

  /** Records the intent, then settles, sends and finishes as the class comment says. */
  WriteOutcome run() {
    IntentOutcome begun = endpoint.intents().begin(token, operation, request.fingerprint());
    if (begun instanceof RejectedStale stale) {
      return stale;
    }
    begunAt = endpoint.nanoTime().getAsLong();
    IntentRecorded recorded = (IntentRecorded) begun;
    Intent intent = recorded.intent();
    if (intent.completed()) {
      return new AlreadyApplied(intent.receipt().orElseThrow());
    }
    earlierMayHaveSent = intent.mayHaveBeenSent();
    effectIsThisCalls = !earlierMayHaveSent;
    if (earlierMayHaveSent) {
      Optional<WriteOutcome> found = settleEarlierAttempts(intent, recorded.previousEpoch());
      if (found.isPresent()) {
        return found.get();
      }
    }
    ApiCalls.SendReport report;
    try {
      report = endpoint.calls().send(key, request, this::beforeAttempt, deadline);
    } catch (StopSending stop) {
      return stop.outcome;
    }
    return finish(report);
  }

  /**
   * Before sending an operation that an earlier call may have sent: found by the lookup → recorded
   * and answered {@link AlreadyApplied} (the effect came from that earlier attempt); definitely not
   * found → empty, and it is sent; anything else → in doubt, nothing sent. A result found is
   * recorded under {@code earlierEpoch}, the newest earlier attempt's: this attempt sent nothing.
   */
  private Optional<WriteOutcome> settleEarlierAttempts(Intent intent, Epoch earlierEpoch) {
    Optional<String> keyMayBeForgotten = endpoint.keyMayBeForgotten(intent);
    Optional<ApiCalls.LookupRequest> lookup = endpoint.lookup();
    if (keyMayBeForgotten.isPresent() && lookup.isEmpty()) {
      throw inDoubt(
          keyMayBeForgotten.get()
              + ", and no lookup request is configured: re-sending under the same key could apply"
              + " it twice; nothing was sent now",
          null);
    }
    if (lookup.isEmpty()) {
      if (endpoint.resendInDoubtWithoutLookup()) {
        return Optional.empty();
      }
      throw inDoubt(
          intent.attempts()
              - 1
              + " earlier attempt(s) may have sent it and no lookup request is configured to ask"
              + " the API whether it saw it; nothing was sent now (configure a lookup, or opt in"
              + " with resendInDoubtWithoutLookup(true) if the API replays the stored result for a"
              + " repeated key)",
          null);
    }
    ApiCalls.LookupResult found =
        endpoint.calls().lookup(lookup.get(), key, resource, operation, deadline);
    if (found instanceof ApiCalls.Found record) {
      // The effect came from an earlier attempt, not from this call: report it as such.
      WriteOutcome completed =
          endpoint.record(
              token, operation, earlierEpoch, key, endpoint.lookupAttributes(key, record));
      if (completed instanceof AlreadyApplied already) {
        return Optional.of(recordedByAnother(already.receipt(), false, "the lookup"));
      }
      return Optional.of(new AlreadyApplied(IntentEndpoint.receiptOf(completed)));
    }
    if (found instanceof ApiCalls.Unavailable unavailable) {
      throw inDoubt(
          intent.attempts()
              - 1
              + " earlier attempt(s) may have sent it and "
              + unavailable.reason()
              + "; nothing was sent now",
          unavailable.cause());
    }
    if (keyMayBeForgotten.isPresent()) {
      throw inDoubt(
          keyMayBeForgotten.get()
              + ": the lookup did not find it, but the API may have forgotten the key of an"
              + " earlier attempt that landed, and re-sending could apply it twice; nothing was"
              + " sent now",
          null);
    }
    logNeverSaw(System.Logger.Level.INFO, "sending it again under the same key");
    effectIsThisCalls = true;
    return Optional.empty();
  }

  /**
   * The check before each attempt (the class comment's item on stale workers): before every retry,
   * and before the first attempt if more than {@link #STALL_BEFORE_RECHECK} passed since {@code
   * begin} returned, the intent is read again. Completed meanwhile with the result of this call's
   * own request → stop, {@link Applied} (see {@link #recordedByAnother}). Begun, completed or
   * registered by a newer owner → stop: {@link RejectedStale} if nothing of this call may have
   * reached the API, else in doubt — never an answer from a newer owner's record, as the epoch is
   * checked before the operation ID. Completed meanwhile by this epoch's owner (or from an older
   * epoch's request) → stop, {@link AlreadyApplied}. Older than the key retention while an earlier
   * attempt may have landed → stop, in doubt.
   */
  private void beforeAttempt(int attempt, boolean reachedNow) {
    if (attempt == 1
        && endpoint.nanoTime().getAsLong() - begunAt <= STALL_BEFORE_RECHECK.toNanos()) {
      return;
    }
    boolean mayHaveLanded = reachedNow || earlierMayHaveSent;
    Intent now = readIntentAgain(attempt, mayHaveLanded);
    if (now.completed()) {
      Receipt receipt = now.receipt().orElseThrow();
      if (!isThisCallsEffect(receipt, reachedNow)) {
        stopIfTakenOver(now, attempt, reachedNow);
      }
      throw new StopSending(
          recordedByAnother(receipt, reachedNow, "the check before attempt " + attempt));
    }
    stopIfTakenOver(now, attempt, reachedNow);
    if (mayHaveLanded) {
      Optional<String> forgotten = endpoint.keyMayBeForgotten(now);
      if (forgotten.isPresent()) {
        throw inDoubt(
            forgotten.get()
                + ": an earlier attempt may have landed under a key the API no longer keeps, and"
                + " another attempt could apply it twice; attempt "
                + attempt
                + " was not sent",
            null);
      }
      if (attempt > 1 && endpoint.lookup().isPresent()) {
        lookUpBeforeResend(attempt);
      }
    }
  }

  /** The intent as the store has it now; a failure is in doubt if an attempt may have landed. */
  private Intent readIntentAgain(int attempt, boolean mayHaveLanded) {
    try {
      return endpoint
          .intents()
          .lookup(resource, operation)
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "the intent of operation " + operation + " of " + resource + " is gone"));
    } catch (StoreException e) {
      if (!mayHaveLanded) {
        throw e;
      }
      throw inDoubt(
          "the intent store failed when it was read again before attempt "
              + attempt
              + " ("
              + e.getMessage()
              + ") and an earlier attempt may have sent it; attempt "
              + attempt
              + " was not sent",
          e);
    }
  }

  /**
   * Stops if a newer owner began or completed this operation, or registered the resource at all:
   * this worker is stale, and the newer owner looks the result up before it sends.
   */
  private void stopIfTakenOver(Intent now, int attempt, boolean reachedNow) {
    Epoch newer = now.epoch();
    Optional<Epoch> completedUnder = now.receipt().map(Receipt::epoch);
    if (completedUnder.isPresent() && completedUnder.get().isNewerThan(newer)) {
      newer = completedUnder.get();
    }
    if (!newer.isNewerThan(token.epoch())) {
      newer = endpoint.intents().currentEpoch(resource);
    }
    if (!newer.isNewerThan(token.epoch())) {
      return;
    }
    if (!reachedNow) {
      throw new StopSending(new RejectedStale(resource, token.epoch(), newer));
    }
    throw inDoubt(
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

  /**
   * The lookup before re-sending within a call, after an attempt that may have reached the API: an
   * API that ignores keys would apply a blind re-send again. Found → recorded, nothing more sent
   * (thrown as {@link StopSending}); no definite answer → in doubt, nothing more sent; definitely
   * not found → returns, and attempt {@code attempt} goes out under the same key.
   */
  private void lookUpBeforeResend(int attempt) {
    ApiCalls.LookupResult found =
        endpoint
            .calls()
            .lookup(endpoint.lookup().orElseThrow(), key, resource, operation, deadline);
    if (found instanceof ApiCalls.Found record) {
      throw new StopSending(complete(endpoint.lookupAttributes(key, record)));
    }
    if (found instanceof ApiCalls.Unavailable unavailable) {
      throw inDoubt(
          "an earlier attempt may have reached the API and "
              + unavailable.reason()
              + "; attempt "
              + attempt
              + " was not sent",
          unavailable.cause());
    }
    logNeverSaw(System.Logger.Level.DEBUG, "sending attempt " + attempt + " under the same key");
  }

  /** Logs that the lookup says the API never saw this operation, and what is sent now. */
  private void logNeverSaw(System.Logger.Level level, String sendingNow) {
    IntentEndpoint.LOG.log(
        level,
        () ->
            "The API never saw operation "
                + operation
                + " of "
                + resource
                + " (key "
                + key
                + "); "
                + sendingNow);
  }

  /**
   * The outcome of the sends: a changed file body, an answer (2xx recorded, 422 and other 4xx
   * refused), no attempt that reached the API (unreachable), or a lost answer (looked up).
   */
  private WriteOutcome finish(ApiCalls.SendReport report) {
    if (report.failure() instanceof ApiRequest.BodyChangedException changed) {
      throw bodyChanged(report, changed);
    }
    ApiCalls.Response response = report.response();
    if (response != null && response.successful()) {
      return complete(endpoint.responseAttributes(key, response));
    }
    if (response != null) {
      refuseIfRejected(response, report.lostBeforeLast() || earlierMayHaveSent);
    }
    if (!report.mayHaveReached()) {
      throw unreachable(report);
    }
    return settleLostAnswer(report);
  }

  /** A file body changed before an attempt: that attempt was not sent. */
  private RuntimeException bodyChanged(
      ApiCalls.SendReport report, ApiRequest.BodyChangedException changed) {
    String what =
        "request body file "
            + ApiRequest.quote(changed.file().toString())
            + " "
            + changed.getMessage()
            + ", so attempt "
            + (report.attempts() + 1)
            + " was not sent";
    if (report.mayHaveReached() || earlierMayHaveSent) {
      return inDoubt(
          what
              + ", and an earlier attempt may have reached the API (put the file back as it was"
              + " when the request was created before retrying)",
          changed);
    }
    return new StoreException(
        "Cannot send operation "
            + operation
            + " of "
            + resource
            + " to "
            + endpoint.name()
            + ": "
            + what
            + " and no request of it reached the API (keep the file unchanged until the"
            + " operation is applied: put it back and retry with the same operation ID, or send"
            + " the new content under a new operation ID)",
        changed,
        false);
  }

  /**
   * A definite refusal: 422 (the API holds another payload under our key: our own fingerprint check
   * passed, so it is not this request's) and every other 4xx that is not worth a retry.
   */
  private void refuseIfRejected(ApiCalls.Response response, boolean mayHaveLandedBefore) {
    String landed =
        mayHaveLandedBefore ? "; an earlier attempt of this operation may have landed" : "";
    String subject =
        "Cannot apply operation " + operation + " of " + resource + " at " + endpoint.name();
    if (response.status() == 422) {
      throw new ApiRejectedException(
          subject
              + ": the API answered HTTP 422, it holds another payload under idempotency key "
              + key
              + endpoint.excerpt(response)
              + landed
              + " (an operation ID names exactly one request; ask the API's operators what they"
              + " hold under that key, and give a different request its own operation ID)",
          422,
          mayHaveLandedBefore);
    }
    if (response.status() >= 400
        && response.status() < 500
        && !ApiCalls.RETRYABLE_STATUSES.contains(response.status())) {
      throw new ApiRejectedException(
          subject
              + ": the API refused it with HTTP "
              + response.status()
              + endpoint.excerpt(response)
              + landed
              + " (fix the request or the credentials; the intent stays, so a retry with the same"
              + " operation ID looks the result up first)",
          response.status(),
          mayHaveLandedBefore);
    }
  }

  /** No attempt could have reached the API: unreachable, or in doubt after an earlier call. */
  private RuntimeException unreachable(ApiCalls.SendReport report) {
    String why =
        report.failure() instanceof CallNotPermittedException
            ? "the circuit breaker is open"
            : report.failure() instanceof ApiCalls.CallTimeLimitPassed passed
                ? "no attempt reached it before " + passed.getMessage()
                : "every attempt failed to connect (" + ApiCalls.describe(report.failure()) + ")";
    if (earlierMayHaveSent) {
      return inDoubt(why + " now, and an earlier attempt may have sent it", report.failure());
    }
    IntentEndpoint.LOG.log(
        System.Logger.Level.WARNING,
        () ->
            "API "
                + endpoint.name()
                + " unreachable for "
                + resource
                + "/"
                + operation
                + ": "
                + why);
    return new ApiUnreachableException(
        "Cannot apply operation "
            + operation
            + " of "
            + resource
            + " at "
            + endpoint.name()
            + ": the API at "
            + endpoint.settings().baseUri()
            + " is unreachable, "
            + why
            + "; no request reached it and nothing is recorded as applied (retry later with the"
            + " same operation ID)",
        report.failure());
  }

  /** The last answer was lost or worth another attempt: the lookup decides, or it is in doubt. */
  private WriteOutcome settleLostAnswer(ApiCalls.SendReport report) {
    ApiCalls.Response response = report.response();
    String what =
        response != null
            ? "the last of " + report.attempts() + " attempt(s) answered HTTP " + response.status()
            : "the answer of attempt "
                + report.attempts()
                + " was lost ("
                + ApiCalls.describe(report.failure())
                + ")";
    if (endpoint.lookup().isEmpty()) {
      throw inDoubt(what + " and no lookup request is configured", null);
    }
    ApiCalls.LookupResult found =
        endpoint.calls().lookup(endpoint.lookup().get(), key, resource, operation, deadline);
    if (found instanceof ApiCalls.Found record) {
      return complete(endpoint.lookupAttributes(key, record));
    }
    String lookupSaid =
        found instanceof ApiCalls.Unavailable unavailable
            ? unavailable.reason()
            : "the lookup did not find it, but a request still in flight may land";
    throw inDoubt(
        what + " and " + lookupSaid,
        report.failure() != null
            ? report.failure()
            : found instanceof ApiCalls.Unavailable u ? u.cause() : null);
  }

  /**
   * Records the result; answers {@link AlreadyApplied} instead of {@link Applied} unless the effect
   * can only be this call's (the rule in the class comment of {@link HttpApiDestination}).
   */
  private WriteOutcome complete(Map<String, String> attributes) {
    WriteOutcome recorded = endpoint.record(token, operation, token.epoch(), key, attributes);
    if (recorded instanceof Applied applied && !effectIsThisCalls) {
      return new AlreadyApplied(applied.receipt());
    }
    if (recorded instanceof AlreadyApplied already) {
      return recordedByAnother(already.receipt(), true, "recording the result");
    }
    return recorded;
  }

  /**
   * The answer when another call recorded the result first. {@link Applied} if the effect can only
   * be this call's ({@link #isThisCallsEffect}: a newer owner found this call's request by lookup).
   * A receipt of a newer owner's own request means this call is stale, and the epoch is checked
   * before the operation ID: {@link RejectedStale} if nothing of this call may have reached the API
   * ({@code reached} false), else in doubt (the API applied one of the requests under the key, and
   * which one is not known). Else {@link AlreadyApplied}: an earlier attempt's request at this
   * epoch or an older one.
   *
   * @param step where the record was found, for the in-doubt message
   */
  private WriteOutcome recordedByAnother(Receipt receipt, boolean reached, String step) {
    if (isThisCallsEffect(receipt, reached)) {
      return new Applied(receipt);
    }
    if (receipt.epoch().isNewerThan(token.epoch())) {
      if (!reached) {
        return new RejectedStale(resource, token.epoch(), receipt.epoch());
      }
      throw inDoubt(
          step
              + " found the result recorded by a newer owner (epoch "
              + receipt.epoch()
              + ") for its own request, while a request of "
              + token
              + " may have reached the API too; the API applied one of them under key "
              + key
              + ", and which one is not known",
          null);
    }
    return new AlreadyApplied(receipt);
  }

  /**
   * Whether a recorded result is this call's own request's: a request of this call may have reached
   * the API ({@code reached}), no earlier attempt may have sent one, and the receipt names this
   * call's epoch as the one it was sent under.
   */
  private boolean isThisCallsEffect(Receipt receipt, boolean reached) {
    return reached && effectIsThisCalls && receipt.epoch().equals(token.epoch());
  }

  private ApiOutcomeUnknownException inDoubt(String why, Throwable cause) {
    return endpoint.inDoubt(resource, operation, key, why, cause);
  }
}
