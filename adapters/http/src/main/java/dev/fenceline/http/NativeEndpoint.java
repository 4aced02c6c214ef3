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
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.UnsupportedCapabilityException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * What every request of one {@link NativeHttpDestination} shares: the endpoint settings, the
 * protocol and the mapping of its answers; and the requests without an idempotency key (register,
 * current epoch, lookup, reset), each documented on the destination. A write is a {@link
 * NativeWrite} over it. Immutable and thread-safe.
 */
final class NativeEndpoint {

  private final EndpointSettings settings;
  private final NativeProtocol protocol;
  private final NativeAnswers answers;

  NativeEndpoint(EndpointSettings settings, NativeProtocol protocol) {
    this.settings = requireNonNull(settings, "settings is null");
    this.protocol = requireNonNull(protocol, "protocol is null");
    this.answers = new NativeAnswers(settings.name(), protocol, settings.calls());
  }

  String name() {
    return settings.name();
  }

  EndpointSettings settings() {
    return settings;
  }

  NativeProtocol protocol() {
    return protocol;
  }

  NativeAnswers answers() {
    return answers;
  }

  /** See {@link NativeHttpDestination#register}. */
  RegisterOutcome register(FencingToken token) {
    String action = "register " + token + " at " + name();
    URI uri =
        settings.resolve(
            protocol.registerPath().expand(Map.of("resource", token.resource().value())));
    // Sent once: without a key, a repeat would answer with the repeat's previous epoch.
    ApiCalls.Response response =
        call(
            action,
            "POST",
            uri,
            Map.of(protocol.tokenHeader(), protocol.tokenFormat().encode(token)),
            settings.calls().deadline());
    if (NativeAnswers.isSuccess(response)) {
      return answers.registered(action, token, response);
    }
    Optional<RejectedStale> stale = answers.stale(action, token, response);
    if (stale.isPresent()) {
      return stale.get();
    }
    answers.refuseIfUntrusted(action, token, response);
    throw answers.failed(action, response, true);
  }

  /**
   * See {@link NativeHttpDestination#lookup}; within what is left of {@code deadline}, a write's or
   * a new one.
   */
  Optional<Receipt> lookup(ResourceId resource, OperationId operation, ApiCalls.Deadline deadline) {
    String action = "look up operation " + operation + " of " + resource + " at " + name();
    if (protocol.lookupPath().isEmpty()) {
      throw new UnsupportedCapabilityException(
          "Cannot "
              + action
              + ": no lookup request is configured (call lookupRequest(path) with the API's"
              + " lookup by idempotency key, e.g. /operations?key={idempotency-key})");
    }
    String key = IdempotencyKeys.of(name(), resource, operation);
    URI uri =
        settings.resolve(
            protocol
                .lookupPath()
                .get()
                .expand(Map.of("resource", resource.value(), "idempotency-key", key)));
    ApiCalls.Response response = call(action, "GET", uri, Map.of(), deadline);
    if (response.status() == 404) {
      return Optional.empty();
    }
    if (NativeAnswers.isSuccess(response)) {
      return Optional.of(answers.receipt(action, resource, operation, response, false));
    }
    throw answers.failed(action, response, false);
  }

  /** See {@link NativeHttpDestination#currentEpoch}. */
  Epoch currentEpoch(ResourceId resource) {
    String action = "read the current epoch of " + resource + " at " + name();
    URI uri =
        settings.resolve(protocol.currentEpochPath().expand(Map.of("resource", resource.value())));
    ApiCalls.Response response = call(action, "GET", uri, Map.of(), settings.calls().deadline());
    if (NativeAnswers.isSuccess(response)) {
      return answers.epochIn(action, response, protocol.currentEpochPointer(), false);
    }
    throw answers.failed(action, response, false);
  }

  /** See {@link NativeHttpDestination#resetRegisteredEpoch}. */
  Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    String action = "reset the registered epoch of " + resource + " to " + epoch + " at " + name();
    if (protocol.resetPath().isEmpty()) {
      throw new UnsupportedCapabilityException(
          "Cannot "
              + action
              + ": no reset request is configured (call resetRequest(path) with the API's admin"
              + " reset, e.g. /fencing/reset?resource={resource}&epoch={epoch}&reason={reason})");
    }
    Map<String, String> values =
        Map.of(
            "resource", resource.value(), "epoch", Long.toString(epoch.value()), "reason", reason);
    URI uri = settings.resolve(protocol.resetPath().get().expand(values));
    ApiCalls.Response response = call(action, "POST", uri, Map.of(), settings.calls().deadline());
    if (NativeAnswers.isSuccess(response)) {
      return answers.epochIn(action, response, protocol.previousEpochPointer(), true);
    }
    throw answers.failed(action, response, true);
  }

  /**
   * A request without a key or body, mapped to its last answer ({@link NativeAnswers#answer}): a
   * {@code GET} is retried like every read; a {@code POST} changes something and is sent once,
   * since without a key a repeat would not be recognised.
   */
  private ApiCalls.Response call(
      String action,
      String method,
      URI uri,
      Map<String, String> headers,
      ApiCalls.Deadline deadline) {
    boolean changes = method.equals("POST");
    return answers.answer(
        action,
        changes,
        uri,
        settings.calls().call(method, uri, headers, answers::retryableRead, !changes, deadline));
  }
}
