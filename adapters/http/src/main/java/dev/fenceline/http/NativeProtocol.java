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

import dev.fenceline.spi.ConfigurationException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JsonPointer;

/**
 * How an API that checks fencing tokens itself speaks, the settings only {@link
 * NativeHttpDestination} has (its endpoint settings are {@link EndpointSettings}): the token
 * header, the statuses of its refusals, where its answers hold epochs, times, messages and receipt
 * attributes, how it marks a replay, and the paths of its register, current-epoch, lookup and reset
 * requests. Each setting is documented on {@link NativeHttpDestination.Builder}. These settings
 * have no YAML keys, so their refusals carry none. Immutable.
 *
 * @param untrustedMarkerPointer with {@code untrustedMarkerValue}, what marks an untrusted-token
 *     refusal among others with the same status; empty for none
 * @param replay how a replay is marked; empty if the API does not replay results
 * @param lookupPath the lookup request; empty for none
 * @param resetPath the admin reset request; empty for none
 */
record NativeProtocol(
    String tokenHeader,
    TokenHeaderFormat tokenFormat,
    int staleTokenStatus,
    JsonPointer currentEpochPointer,
    JsonPointer previousEpochPointer,
    int untrustedTokenStatus,
    Optional<JsonPointer> untrustedMarkerPointer,
    String untrustedMarkerValue,
    int conflictStatus,
    Optional<ReplayMarker> replay,
    PathTemplate registerPath,
    PathTemplate currentEpochPath,
    Optional<PathTemplate> lookupPath,
    Optional<PathTemplate> resetPath,
    JsonPointer epochPointer,
    JsonPointer recordedAtPointer,
    JsonPointer messagePointer,
    Map<String, JsonPointer> receiptAttributes) {

  /** Copies the receipt attributes, keeping their order. */
  NativeProtocol {
    receiptAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(receiptAttributes));
  }

  /**
   * The validating builder behind {@link NativeHttpDestination.Builder}; the defaults match the
   * IETF idempotency-key draft and Stripe-like APIs. Not thread-safe.
   */
  static final class Builder {
    private String tokenHeader = "Fencing-Token";
    private TokenHeaderFormat tokenFormat = TokenHeaderFormat.FULL;
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

    void tokenHeader(String header) {
      this.tokenHeader = HeaderNames.check(null, "token header", header, "Fencing-Token");
    }

    void tokenFormat(TokenHeaderFormat format) {
      this.tokenFormat = requireNonNull(format, "format is null");
    }

    void staleTokenStatus(int status) {
      this.staleTokenStatus = clientError("stale token status", status);
    }

    void currentEpochPointer(String pointer) {
      this.currentEpochPointer = pointer("current epoch pointer", pointer);
    }

    void previousEpochPointer(String pointer) {
      this.previousEpochPointer = pointer("previous epoch pointer", pointer);
    }

    void untrustedTokenStatus(int status) {
      this.untrustedTokenStatus = clientError("untrusted token status", status);
    }

    void untrustedTokenMarker(String pointer, String value) {
      this.untrustedMarkerPointer = pointer("untrusted token marker pointer", pointer);
      this.untrustedMarkerValue = requireNonNull(value, "value is null");
    }

    void conflictStatus(int status) {
      this.conflictStatus = clientError("conflict status", status);
    }

    void replayMarkedBy(ReplayMarker marker) {
      this.replay = requireNonNull(marker, "marker is null");
    }

    void registerRequest(String path) {
      this.registerPath = template("register request", path, Set.of("resource"), Set.of());
    }

    void currentEpochRequest(String path) {
      this.currentEpochPath =
          template("current epoch request", path, Set.of("resource"), Set.of("resource"));
    }

    void lookupRequest(String path) {
      this.lookupPath =
          template(
              "lookup request",
              path,
              Set.of("resource", "idempotency-key"),
              Set.of("idempotency-key"));
    }

    void resetRequest(String path) {
      this.resetPath =
          template(
              "reset request",
              path,
              Set.of("resource", "epoch", "reason"),
              Set.of("resource", "epoch"));
    }

    void epochPointer(String pointer) {
      this.epochPointer = pointer("epoch pointer", pointer);
    }

    void recordedAtPointer(String pointer) {
      this.recordedAtPointer = pointer("recorded-at pointer", pointer);
    }

    void messagePointer(String pointer) {
      this.messagePointer = pointer("message pointer", pointer);
    }

    void receiptAttribute(String name, String pointer) {
      requireNonNull(name, "name is null");
      if (!name.matches("[a-z0-9][a-z0-9.-]{0,63}")) {
        throw new ConfigurationException(
            "Cannot add receipt attribute "
                + ApiRequest.quote(name)
                + ": names are 1 to 64 characters from [a-z0-9.-] (e.g. payment-id)");
      }
      receiptAttributes.put(name, pointer("receipt attribute " + name + " pointer", pointer));
    }

    /**
     * The protocol, checked as a whole.
     *
     * @param subject the destination, as {@code build()} messages name it
     * @param idempotencyKeyHeader the endpoint's, which must differ from the token header
     * @throws ConfigurationException if a required request is missing or two settings clash
     */
    NativeProtocol build(String subject, String idempotencyKeyHeader) {
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
      return new NativeProtocol(
          tokenHeader,
          tokenFormat,
          staleTokenStatus,
          currentEpochPointer,
          previousEpochPointer,
          untrustedTokenStatus,
          Optional.ofNullable(untrustedMarkerPointer),
          untrustedMarkerValue,
          conflictStatus,
          Optional.ofNullable(replay),
          registerPath,
          currentEpochPath,
          Optional.ofNullable(lookupPath),
          Optional.ofNullable(resetPath),
          epochPointer,
          recordedAtPointer,
          messagePointer,
          receiptAttributes);
    }

    private static void require(boolean condition, String subject, String reason) {
      if (!condition) {
        throw new ConfigurationException("Cannot build " + subject + ": " + reason);
      }
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
