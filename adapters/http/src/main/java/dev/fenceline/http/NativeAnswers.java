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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UntrustedTokenException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the answers of an API that checks fencing tokens itself map to outcomes, the table in the
 * class comment of {@link NativeHttpDestination}: which statuses and bodies are a success, a
 * replay, a stale token, an untrusted token, a refusal or an unknown outcome; how a receipt, an
 * epoch and the API's message are read from a body; and which answers are worth another attempt. It
 * sends nothing. Immutable and thread-safe.
 */
final class NativeAnswers {

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /** Statuses a read or a keyed write retries besides lost answers: overload and server errors. */
  private static final Set<Integer> RETRYABLE_STATUSES = Set.of(429, 500, 502, 503, 504);

  private static final int MAX_SHOWN = 600;

  private final String name;
  private final NativeProtocol protocol;
  private final ApiCalls calls;

  /**
   * @param name the destination's name, for receipts
   * @param calls the sender, for its attempt time limit and to mask the bearer token
   */
  NativeAnswers(String name, NativeProtocol protocol, ApiCalls calls) {
    this.name = requireNonNull(name, "name is null");
    this.protocol = requireNonNull(protocol, "protocol is null");
    this.calls = requireNonNull(calls, "calls is null");
  }

  /** True if a replay marker is configured and {@code response} carries it. */
  boolean replayed(ApiCalls.Response response) {
    return protocol.replay().map(marker -> marker.matches(response)).orElse(false);
  }

  /**
   * True for an answer that, to a first attempt, is a definite refusal: the stale status with an
   * epoch, the untrusted status and every other 4xx but 429 and the conflict status (which has its
   * own rule in {@link #write}).
   */
  boolean isRefusal(ApiCalls.Response response) {
    int status = response.status();
    return status >= 400
        && status <= 499
        && status != protocol.conflictStatus()
        && !RETRYABLE_STATUSES.contains(status)
        && !(status == protocol.staleTokenStatus() && retryableWrite(response));
  }

  /**
   * A 2xx register answer, checked against the epoch asked for: the current epoch it gives is the
   * token's (then {@link Registered}, with a previous epoch not newer than it) or newer (then
   * {@link RejectedStale}: registering an older epoch changes nothing, whatever the status says);
   * anything else contradicts the success, and like an unreadable answer it is an error whose
   * outcome is unknown (the API said it registered).
   */
  RegisterOutcome registered(String action, FencingToken token, ApiCalls.Response response) {
    Epoch current;
    Epoch previous;
    try {
      JsonNode body = json(action, response, false);
      current = epochAt(action, body, protocol.currentEpochPointer(), response, false);
      previous = epochAt(action, body, protocol.previousEpochPointer(), response, false);
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
   * A keyed write is worth another attempt under the same key for a server error, 429, the stale
   * status <em>without</em> a current epoch (the key is still being processed), and a success whose
   * body was cut off (the repeat is answered with the stored result). The stale status with a
   * current epoch is a definite answer and never retried.
   */
  boolean retryableWrite(ApiCalls.Response response) {
    if (response.status() == protocol.staleTokenStatus()) {
      JsonNode node = parse(response).at(protocol.currentEpochPointer());
      return node.isMissingNode() || node.isNull();
    }
    return retryableRead(response);
  }

  boolean retryableRead(ApiCalls.Response response) {
    return RETRYABLE_STATUSES.contains(response.status())
        || (isSuccess(response) && response.bodyError().isPresent());
  }

  /** The last answer of {@code report}, or a {@link StoreException} saying why there is none. */
  ApiCalls.Response answer(String action, boolean changes, URI uri, ApiCalls.SendReport report) {
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
    String hint =
        report.mayHaveReached()
            ? unknownOutcomeHint(changes)
            : "nothing reached the API; retry when it is reachable";
    throw new StoreException(
        "Cannot " + action + ": " + reason + " from " + uri + " (" + hint + ")",
        failure,
        report.mayHaveReached());
  }

  private String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + calls.redact(message));
  }

  static boolean isSuccess(ApiCalls.Response response) {
    return response.status() >= 200 && response.status() <= 299;
  }

  /** A stale-token answer: the stale status with a current epoch; empty for anything else. */
  Optional<RejectedStale> stale(String action, FencingToken token, ApiCalls.Response response) {
    if (response.status() != protocol.staleTokenStatus()) {
      return Optional.empty();
    }
    JsonNode node = parse(response).at(protocol.currentEpochPointer());
    if (node.isMissingNode() || node.isNull()) {
      return Optional.empty(); // the same status for "the key is still being processed"
    }
    Epoch current =
        epochAt(action, parse(response), protocol.currentEpochPointer(), response, false);
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
              + protocol.staleTokenStatus()
              + " is wrong)",
          null,
          false);
    }
    return Optional.of(new RejectedStale(token.resource(), token.epoch(), current));
  }

  void refuseIfUntrusted(String action, FencingToken token, ApiCalls.Response response) {
    if (response.status() != protocol.untrustedTokenStatus()) {
      return;
    }
    if (protocol.untrustedMarkerPointer().isPresent()) {
      JsonNode marker = parse(response).at(protocol.untrustedMarkerPointer().get());
      if (!marker.isString() || !marker.stringValue().equals(protocol.untrustedMarkerValue())) {
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

  /** What to do after a request whose outcome is unknown: one that {@code changes}, or a read. */
  private static String unknownOutcomeHint(boolean changes) {
    return changes
        ? "the API may have applied it; retry with the same operation ID, which sends the same"
            + " idempotency key, or look the result up"
        : "retry later";
  }

  StoreException failed(String action, ApiCalls.Response response, boolean changes) {
    int status = response.status();
    boolean unknown = status >= 500 || status < 400 || status == protocol.staleTokenStatus();
    String hint =
        unknown
            ? unknownOutcomeHint(changes)
            : "the API refused the request and changed nothing; fix the request or the"
                + " destination's configuration before retrying";
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

  Receipt receipt(
      String action,
      ResourceId resource,
      OperationId operation,
      ApiCalls.Response response,
      boolean applied) {
    JsonNode body = json(action, response, applied);
    Epoch epoch = epochAt(action, body, protocol.epochPointer(), response, applied);
    JsonNode recordedAtNode = body.at(protocol.recordedAtPointer());
    Instant recordedAt;
    try {
      recordedAt = Instant.parse(recordedAtNode.isString() ? recordedAtNode.stringValue() : "");
    } catch (DateTimeParseException e) {
      throw unreadable(
          action,
          response,
          applied,
          "no ISO-8601 instant at " + protocol.recordedAtPointer(),
          "recorded-at");
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : attributeNodes(body).entrySet()) {
      JsonNode node = field.getValue();
      if (node.isMissingNode() || node.isNull()) {
        throw unreadable(
            action,
            response,
            applied,
            "no value at " + protocol.receiptAttributes().get(field.getKey()),
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
    protocol
        .receiptAttributes()
        .forEach((attribute, pointer) -> nodes.put(attribute, body.at(pointer)));
    return nodes;
  }

  /** The epoch at {@code pointer} of a 2xx answer's JSON body. */
  Epoch epochIn(String action, ApiCalls.Response response, JsonPointer pointer, boolean applied) {
    return epochAt(action, json(action, response, applied), pointer, response, applied);
  }

  Epoch epochAt(
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

  JsonNode json(String action, ApiCalls.Response response, boolean applied) {
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
  String apiMessage(ApiCalls.Response response) {
    JsonNode node = parse(response).at(protocol.messagePointer());
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
}
