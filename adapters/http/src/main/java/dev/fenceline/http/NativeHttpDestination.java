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
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

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

  private final NativeEndpoint endpoint;
  private final Set<Capability> capabilities;

  private NativeHttpDestination(NativeEndpoint endpoint) {
    this.endpoint = endpoint;
    EnumSet<Capability> set = EnumSet.noneOf(Capability.class);
    if (endpoint.protocol().replay().isPresent()) {
      set.add(Capability.NATIVE_EPOCH_CHECK);
      set.add(Capability.OPERATION_RECORD);
    }
    if (endpoint.protocol().lookupPath().isPresent()) {
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
    return endpoint.name();
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
    return new NativeWrite(endpoint, token, operation, request).run();
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
    return endpoint.register(token);
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
    return endpoint.lookup(resource, operation, endpoint.settings().calls().deadline());
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
    return endpoint.currentEpoch(resource);
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
    return endpoint.resetRegisteredEpoch(resource, epoch, reason);
  }

  @Override
  public String toString() {
    return "NativeHttpDestination["
        + name()
        + " at "
        + endpoint.settings().baseUri()
        + ", "
        + capabilities
        + "]";
  }

  /** The circuit breaker every request of this destination goes through. */
  public CircuitBreaker circuitBreaker() {
    return endpoint.settings().calls().breaker();
  }

  /**
   * Validating builder for {@link NativeHttpDestination}. Required: {@link #name}, {@link
   * #baseUri}, {@link #registerRequest} and {@link #currentEpochRequest}. Everything else has a
   * default that matches the IETF idempotency-key draft and Stripe-like APIs; {@link
   * #replayMarkedBy} and {@link #lookupRequest} have none, and without them the destination reports
   * less (see the class comment). The settings this destination shares with {@link
   * HttpApiDestination} (name, base URI, idempotency key header, bearer token, client, time limits,
   * backoff, circuit breaker) are set through {@link EndpointBuilder}, the same way for both;
   * attempts are checked the same way too.
   */
  public static final class Builder extends EndpointBuilder<Builder> {

    private final NativeProtocol.Builder protocol = new NativeProtocol.Builder();

    private Builder() {
      super(EndpointSettings.Kind.NATIVE);
    }

    @Override
    Builder self() {
      return this;
    }

    /** The header that carries the token. Default {@code Fencing-Token}. */
    public Builder tokenHeader(String header) {
      protocol.tokenHeader(header);
      return this;
    }

    /** How the token is written into its header. Default {@link TokenHeaderFormat#FULL}. */
    public Builder tokenFormat(TokenHeaderFormat format) {
      protocol.tokenFormat(format);
      return this;
    }

    /**
     * The status the API answers a stale token with (default 409). The answer must carry the
     * current epoch at the {@link #currentEpochPointer}; the same status without it is read as "the
     * key is still being processed" (outcome unknown).
     */
    public Builder staleTokenStatus(int status) {
      protocol.staleTokenStatus(status);
      return this;
    }

    /**
     * Where the API's stale-token, register and current-epoch answers give the current epoch.
     * Default {@code /current-epoch}.
     */
    public Builder currentEpochPointer(String pointer) {
      protocol.currentEpochPointer(pointer);
      return this;
    }

    /**
     * Where the register and reset answers give the epoch registered before. Default {@code
     * /previous-epoch}.
     */
    public Builder previousEpochPointer(String pointer) {
      protocol.previousEpochPointer(pointer);
      return this;
    }

    /**
     * The status the API answers an untrusted (foreign, unsigned, forged) token with. Default 403.
     */
    public Builder untrustedTokenStatus(int status) {
      protocol.untrustedTokenStatus(status);
      return this;
    }

    /**
     * Counts an {@linkplain #untrustedTokenStatus untrusted-status} answer as an untrusted token
     * only when the string at {@code pointer} equals {@code value}, for APIs that answer other
     * refusals (a wrong bearer token) with the same status. Default: no marker.
     */
    public Builder untrustedTokenMarker(String pointer, String value) {
      protocol.untrustedTokenMarker(pointer, value);
      return this;
    }

    /**
     * The status the API answers when an idempotency key is reused with another request. Default
     * 422 (the IETF idempotency-key draft).
     */
    public Builder conflictStatus(int status) {
      protocol.conflictStatus(status);
      return this;
    }

    /**
     * Declares that the API replays the stored result for a repeated key and how a replay is
     * marked. Without this the destination does not report {@link Capability#OPERATION_RECORD}.
     */
    public Builder replayMarkedBy(ReplayMarker marker) {
      protocol.replayMarkedBy(marker);
      return this;
    }

    /**
     * The register request: a {@code POST} of this path with the token header, answered with the
     * registered and the previous epoch (required). Placeholder: {@code {resource}}.
     */
    public Builder registerRequest(String path) {
      protocol.registerRequest(path);
      return this;
    }

    /**
     * The current-epoch request: a {@code GET} of this path, answered with the epoch at the {@link
     * #currentEpochPointer} (required). Placeholder: {@code {resource}} (required).
     */
    public Builder currentEpochRequest(String path) {
      protocol.currentEpochRequest(path);
      return this;
    }

    /**
     * The lookup request: a {@code GET} of this path, answered 200 with the receipt fields or 404.
     * Placeholders: {@code {idempotency-key}} (required), {@code {resource}}. Without it the
     * destination does not report {@link Capability#RESULT_LOOKUP}.
     */
    public Builder lookupRequest(String path) {
      protocol.lookupRequest(path);
      return this;
    }

    /**
     * The admin reset request ({@link SupportsEpochReset}): a {@code POST} of this path, answered
     * with the previous epoch. Placeholders: {@code {resource}}, {@code {epoch}} (both required),
     * {@code {reason}}.
     */
    public Builder resetRequest(String path) {
      protocol.resetRequest(path);
      return this;
    }

    /** Where a write or lookup answer gives the operation's epoch. Default {@code /epoch}. */
    public Builder epochPointer(String pointer) {
      protocol.epochPointer(pointer);
      return this;
    }

    /**
     * Where a write or lookup answer gives the ISO-8601 instant the API recorded the operation.
     * Default {@code /recorded-at}.
     */
    public Builder recordedAtPointer(String pointer) {
      protocol.recordedAtPointer(pointer);
      return this;
    }

    /** Where an error answer gives a message shown in exceptions. Default {@code /message}. */
    public Builder messagePointer(String pointer) {
      protocol.messagePointer(pointer);
      return this;
    }

    /**
     * Adds receipt attribute {@code name} read from {@code pointer} of every write and lookup
     * answer (it must be present); a string is taken as is, another value as its JSON text.
     */
    public Builder receiptAttribute(String name, String pointer) {
      protocol.receiptAttribute(name, pointer);
      return this;
    }

    /**
     * Attempts per request, the first included, 1 to 20; default 3 (as {@link
     * HttpApiDestination.Builder#maxAttempts}). A write is retried under the same idempotency key
     * only when the API {@linkplain #replayMarkedBy replays results}; reads are retried; register
     * and reset requests, which carry no key, are sent once.
     */
    public Builder maxAttempts(int maxAttempts) {
      endpoint.maxAttempts(maxAttempts);
      return this;
    }

    /**
     * Builds the destination.
     *
     * @throws ConfigurationException if a required setting is missing, two settings clash, or the
     *     bearer token's variable is not set
     */
    public NativeHttpDestination build() {
      endpoint.check();
      NativeProtocol checked = protocol.build(endpoint.subject(), endpoint.idempotencyKeyHeader());
      return new NativeHttpDestination(new NativeEndpoint(endpoint.build(), checked));
    }
  }
}
