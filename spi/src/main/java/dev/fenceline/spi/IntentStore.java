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
package dev.fenceline.spi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A fenced record of intents, for destinations that cannot compare epochs themselves, such as an
 * external HTTP API that honours idempotency keys (R7). Before a request is sent, {@link #begin}
 * checks the epoch and records the intent in one atomic step, serialized on the resource's control
 * record: a stale worker is rejected there and never sends. After the call, {@link #complete}
 * records its result.
 *
 * <p>This is weaker than a fenced destination: a worker whose intent was recorded before a newer
 * owner registered can still send its request during the takeover. What it prevents is every
 * request of a worker that was already stale when it began, and every request of an attempt that
 * begins after the operation's result was recorded.
 *
 * <p>Like destinations, intent stores are scoped by {@linkplain #name() name}, refuse untrusted
 * tokens ({@link UntrustedTokenException}) before comparing epochs, and share the registered epoch
 * of a resource with every other destination of the same store. Implementations are thread-safe.
 */
public interface IntentStore {

  /**
   * {@return the name that scopes the intents (the destination's name): two stores with different
   * names never see each other's intents}
   */
  String name();

  /**
   * {@return the identity of the store the intents live in, the same in every process that opens it
   * (see {@link PointerStore#storeId()})}
   */
  String storeId();

  /**
   * Registers the token's epoch as {@link Destination#register} does.
   *
   * @param token the fencing token
   * @return {@link Registered}, or {@link RejectedStale} if a newer epoch is registered
   * @throws UntrustedTokenException as {@link Destination#register} does
   * @throws StoreException if the store cannot be reached
   */
  RegisterOutcome register(FencingToken token);

  /**
   * Begins an attempt of {@code operation}, in one atomic step: refuse an untrusted token; compare
   * the token's epoch with the registered one (older → {@link RejectedStale}, nothing changes;
   * newer → registered); then, if no intent exists, record one with {@code fingerprint}, the
   * token's epoch and one attempt; if an intent exists and is not completed, set its epoch to the
   * token's and count one more attempt; if it is completed, change nothing.
   *
   * <p>Steps, as for {@link Destination#write} ({@link FencingStep}): {@code BEFORE_LOCK} before
   * the lock; {@code AFTER_EPOCH_CHECK} once the epoch passed; {@code AFTER_APPLY} once the intent
   * is recorded; {@code AFTER_COMMIT} after the commit; a stale begin reports only {@code
   * BEFORE_LOCK}.
   *
   * @param token the fencing token
   * @param operation the operation ID
   * @param fingerprint the request's fingerprint
   * @return the intent as recorded now, or {@link RejectedStale}
   * @throws UntrustedTokenException as {@link Destination#write} does
   * @throws OperationConflictException if the intent was recorded with another fingerprint (after
   *     the epoch check; {@link OperationConflictException#differentIntent}); nothing changes, not
   *     even the registered epoch
   * @throws StoreException if the store failed; with {@link StoreException#outcomeUnknown()} the
   *     attempt may have been recorded, which is safe: the next attempt looks the result up first
   */
  IntentOutcome begin(FencingToken token, OperationId operation, RequestFingerprint fingerprint);

  /**
   * Records the result of this attempt's own call for {@code operation}: {@link #complete(
   * FencingToken, OperationId, Epoch, Map)} with the token's epoch.
   *
   * @param token the fencing token
   * @param operation the operation ID
   * @param attributes the receipt's attributes (see {@link Receipt})
   * @return {@link Applied} with the receipt recorded now, or {@link AlreadyApplied} with the one
   *     recorded before
   * @throws IllegalStateException if no intent was recorded for the operation
   * @throws StoreException as {@link #complete(FencingToken, OperationId, Epoch, Map)} does
   */
  default WriteOutcome complete(
      FencingToken token, OperationId operation, Map<String, String> attributes) {
    return complete(token, operation, token.epoch(), attributes);
  }

  /**
   * Records the result of a call for {@code operation}, whose intent must exist. The first
   * completion wins: if a receipt is recorded already, nothing changes and it is returned as {@link
   * AlreadyApplied}. Completion is not refused for a stale epoch: it records what the called system
   * answered, which is true whoever asked. The token must still be trusted (issuer and signature).
   *
   * <p>The receipt carries {@code sentUnder}, the epoch of the attempt whose request the result
   * answers: the token's own for this attempt's call; {@link IntentRecorded#previousEpoch()} when
   * this attempt found an earlier attempt's request by lookup and sent nothing itself, so the
   * receipt never names an epoch under which nothing was sent. (Several earlier attempts may each
   * have sent the request under one idempotency key; the called system applied one of them, and the
   * receipt names the newest, an upper bound.)
   *
   * @param token the fencing token of the attempt that records the result
   * @param operation the operation ID
   * @param sentUnder the epoch of the attempt that sent the request: a real epoch, not above the
   *     token's
   * @param attributes the receipt's attributes (see {@link Receipt})
   * @return {@link Applied} with the receipt recorded now, or {@link AlreadyApplied} with the one
   *     recorded before
   * @throws IllegalArgumentException if {@code sentUnder} is {@link Epoch#NONE} or above the
   *     token's epoch; nothing is recorded
   * @throws IllegalStateException if no intent was recorded for the operation
   * @throws StoreException if the store failed; with {@link StoreException#outcomeUnknown()} the
   *     receipt may have been recorded: {@link #lookup} tells
   */
  WriteOutcome complete(
      FencingToken token, OperationId operation, Epoch sentUnder, Map<String, String> attributes);

  /**
   * Checks the {@code sentUnder} argument of {@link #complete(FencingToken, OperationId, Epoch,
   * Map)} for implementations.
   *
   * @param token the token of the attempt that records the result
   * @param operation the operation ID
   * @param sentUnder the epoch of the attempt that sent the request
   * @throws IllegalArgumentException if {@code sentUnder} is {@link Epoch#NONE} or above the
   *     token's epoch
   */
  static void checkSentUnder(FencingToken token, OperationId operation, Epoch sentUnder) {
    Objects.requireNonNull(sentUnder, "sentUnder is null");
    if (sentUnder.equals(Epoch.NONE) || token.epoch().isOlderThan(sentUnder)) {
      throw new IllegalArgumentException(
          "Cannot record the result of operation "
              + operation
              + " of "
              + token.resource()
              + " as sent under epoch "
              + sentUnder
              + " by an attempt at epoch "
              + token.epoch()
              + ": the request was sent by this attempt or an earlier one, under an epoch from 1"
              + " to "
              + token.epoch());
    }
  }

  /**
   * Reads the intent of {@code operation} from the linearizable store, whatever epoch is current.
   *
   * @param resource the resource
   * @param operation the operation ID
   * @return the intent, or empty if no attempt ever began
   * @throws StoreException if the store cannot be reached
   */
  Optional<Intent> lookup(ResourceId resource, OperationId operation);

  /**
   * {@return the newest registered epoch of {@code resource}, or {@link Epoch#NONE}; informational,
   * as {@link Destination#currentEpoch}}
   *
   * @param resource the resource
   */
  Epoch currentEpoch(ResourceId resource);
}
