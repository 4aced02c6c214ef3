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
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import java.util.Map;
import java.util.Optional;

/**
 * One {@link NativeHttpDestination#write}: its token, operation, request and idempotency key, its
 * deadline and the action its messages name. {@link #run} sends the request with the token and the
 * key, then maps the last answer to an outcome ({@link NativeAnswers}), settling a refusal that
 * followed an attempt which may have landed with the lookup. Not thread-safe: one per call.
 */
final class NativeWrite {

  private final NativeEndpoint endpoint;
  private final NativeProtocol protocol;
  private final NativeAnswers answers;
  private final FencingToken token;
  private final ResourceId resource;
  private final OperationId operation;
  private final ApiRequest request;
  private final String action;
  private final String key;
  private final ApiCalls.Deadline deadline;

  /** A write that starts now: its deadline, shared by the send and the lookups, starts here. */
  NativeWrite(
      NativeEndpoint endpoint, FencingToken token, OperationId operation, ApiRequest request) {
    this.endpoint = requireNonNull(endpoint, "endpoint is null");
    this.protocol = endpoint.protocol();
    this.answers = endpoint.answers();
    this.token = requireNonNull(token, "token is null");
    this.operation = requireNonNull(operation, "operation is null");
    this.request = requireNonNull(request, "request is null");
    this.resource = token.resource();
    this.action = "write operation " + operation + " of " + resource + " to " + endpoint.name();
    refuseOwnHeaders();
    this.key = IdempotencyKeys.of(endpoint.name(), resource, operation);
    this.deadline = endpoint.settings().calls().deadline();
  }

  /** The request must not set the token or idempotency key header: a second value is never sent. */
  private void refuseOwnHeaders() {
    for (String own :
        new String[] {protocol.tokenHeader(), endpoint.settings().idempotencyKeyHeader()}) {
      // request.headers() ignores case.
      if (request.headers().containsKey(own)) {
        throw new IllegalArgumentException(
            "Cannot "
                + action
                + ": the request sets header "
                + own
                + ", which the destination sets itself (remove it from the request)");
      }
    }
  }

  /** Sends, then maps the answer as the class comment of {@link NativeHttpDestination} says. */
  WriteOutcome run() {
    // Retried under the same key only if the API replays results: then a repeat that finds the
    // operation applied answers the stored result; without replay it could apply it twice.
    ApiCalls.SendReport report =
        endpoint
            .settings()
            .calls()
            .send(
                key,
                request,
                Map.of(protocol.tokenHeader(), protocol.tokenFormat().encode(token)),
                answers::retryableWrite,
                protocol.replay().isPresent(),
                ApiCalls.BeforeAttempt.NONE,
                deadline);
    if (report.failure() instanceof ApiRequest.BodyChangedException changed) {
      throw bodyChanged(report, changed);
    }
    ApiCalls.Response response =
        answers.answer(action, true, request.resolve(endpoint.settings().baseUri()), report);
    if (NativeAnswers.isSuccess(response)) {
      Receipt receipt = answers.receipt(action, resource, operation, response, true);
      return answers.replayed(response) ? new AlreadyApplied(receipt) : new Applied(receipt);
    }
    if (report.lostBeforeLast() && answers.isRefusal(response)) {
      return refusedAfterEarlierAttempt(response, report.attempts());
    }
    Optional<RejectedStale> stale = answers.stale(action, token, response);
    if (stale.isPresent()) {
      return stale.get();
    }
    answers.refuseIfUntrusted(action, token, response);
    if (response.status() == protocol.conflictStatus()) {
      throw conflict(response, report);
    }
    throw answers.failed(action, response, true);
  }

  private StoreException bodyChanged(
      ApiCalls.SendReport report, ApiRequest.BodyChangedException changed) {
    return new StoreException(
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

  /** The key was used with another request: the recorded receipt if a lookup finds it. */
  private RuntimeException conflict(ApiCalls.Response response, ApiCalls.SendReport report) {
    Optional<Receipt> recorded =
        protocol.lookupPath().isPresent()
            ? endpoint.lookup(resource, operation, deadline)
            : Optional.empty();
    if (recorded.isPresent()) {
      return OperationConflictException.differentRequest(recorded.get(), request.fingerprint());
    }
    return new StoreException(
        "Cannot "
            + action
            + ": the API answered "
            + response.status()
            + ", idempotency key "
            + key
            + " was used before with a different request"
            + answers.apiMessage(response)
            + " (an operation ID names exactly one request, so give a different request its own"
            + " operation ID; configure a lookup request to get the recorded receipt)",
        null,
        report.lostBeforeLast());
  }

  /**
   * The outcome of a write whose last attempt was refused after an earlier attempt may have landed
   * (its answer was lost, or it was a 5xx, 429 or "still processing"). The refusal tells only what
   * the last attempt was told, so the key is looked up: found → {@link AlreadyApplied} with the
   * receipt the API recorded; not found and the refusal is a stale answer → {@link RejectedStale};
   * anything else → outcome unknown (see the class comment of {@link NativeHttpDestination}).
   */
  private WriteOutcome refusedAfterEarlierAttempt(ApiCalls.Response response, int attempts) {
    String refusal =
        "the API answered "
            + response.status()
            + answers.apiMessage(response)
            + " to attempt "
            + attempts
            + ", but an earlier attempt's answer was lost or in doubt, so that attempt may have"
            + " applied it";
    String hint =
        " (look the result up, or retry with the same operation ID, which sends the same"
            + " idempotency key)";
    Optional<Receipt> found = lookUpAfterRefusal(refusal, hint);
    if (found.isPresent()) {
      return new AlreadyApplied(found.get());
    }
    if (response.status() == protocol.staleTokenStatus()) {
      try {
        Optional<RejectedStale> stale = answers.stale(action, token, response);
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

  /** The lookup after a refusal; without one, or if it fails, the outcome is unknown. */
  private Optional<Receipt> lookUpAfterRefusal(String refusal, String hint) {
    if (protocol.lookupPath().isEmpty()) {
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
    try {
      return endpoint.lookup(resource, operation, deadline);
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
}
