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

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where a fenced side effect lands. A destination that reports {@link
 * Capability#NATIVE_EPOCH_CHECK} and {@link Capability#OPERATION_RECORD} does all of the following
 * in one atomic step, serialized on a per-resource control record, in this order (R2 to R4):
 *
 * <ol>
 *   <li>refuse a token it cannot trust ({@link UntrustedTokenException}, below);
 *   <li>compare the supplied epoch with the registered one: older is {@link RejectedStale}; newer
 *       is registered;
 *   <li>if the operation ID was already recorded, answer {@link AlreadyApplied} with the stored
 *       receipt, or, if it was recorded with another request fingerprint, throw {@link
 *       OperationConflictException} and change nothing (a newer epoch registered in this step is
 *       undone with the rest);
 *   <li>otherwise apply the change and record the operation ID with its receipt.
 * </ol>
 *
 * <p>The conformance kit ({@code fenceline-tck}'s {@code DestinationContract}) checks the rules
 * stated here, and uses the {@link FencingStep}s to pause writers where races happen (it does not
 * yet compare the full list of steps each outcome reports); {@code fenceline-locking}'s {@code
 * LockingSteps} has the whole step for a store that locks rows in transactions.
 *
 * <p>Reading the epoch first and then writing unconditionally is not a destination: a new epoch can
 * be registered in between. Implementations are thread-safe.
 *
 * <p>Operation records are scoped by the destination's {@linkplain #name() name}: the same
 * operation ID applied to two destinations of one store is two operations. The registered epoch is
 * per resource and shared by every destination of the store (one owner at a time per resource).
 * Where the destination can, it records a {@link RequestFingerprint} with the operation, and a
 * retry with a different request fails with {@link OperationConflictException}.
 *
 * <p>Before the epoch is compared, a destination refuses tokens it cannot trust ({@link
 * UntrustedTokenException}): a token of another issuer than the one the resource was first
 * registered with, and, where the destination is configured with {@link TokenKeys}, an unsigned or
 * forged token.
 *
 * @param <C> the kind of change this destination applies
 */
public interface Destination<C> {

  /**
   * The rule for {@link #name()}: 1 to 64 characters from {@code [a-z0-9._-]}, starting with a
   * letter or digit.
   */
  Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  /**
   * Checks a destination name against {@link #NAME}.
   *
   * @param name the destination's name
   * @return the name
   * @throws IllegalArgumentException if it breaks the rule
   */
  static String validateName(String name) {
    requireNonNull(name, "destination name is null");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Cannot use destination name "
              + Text.quoteForMessage(name)
              + ": it must be 1 to 64 characters from [a-z0-9._-], starting with a letter or digit"
              + " (e.g. invoices)");
    }
    return name;
  }

  /**
   * {@return the name given when the destination was created} It scopes the operation records: two
   * destinations of one store with different names never see each other's operations; two with the
   * same name are the same destination. Never changes.
   */
  String name();

  /** {@return what this destination can check and record by itself} The set never changes. */
  Set<Capability> capabilities();

  /** {@return the guarantee the capabilities support} */
  default Guarantee guarantee() {
    return Guarantee.of(capabilities());
  }

  /**
   * Registers the token's epoch so that every older epoch is rejected from now on. A new owner
   * calls this right after acquiring, which cuts the old owner off before the new one writes
   * anything. Registering the current epoch again is accepted and changes nothing, except that a
   * resource bound to no issuer yet (never registered, or reset by {@link SupportsEpochReset}) is
   * bound to the token's issuer by any token that is not stale. One atomic step, serialized with
   * writes of the resource; it reports no {@link FencingStep}.
   *
   * @param token the fencing token
   * @return {@link Registered} (with the epoch registered before), or {@link RejectedStale} if a
   *     newer epoch is registered (nothing changes, and no issuer is bound)
   * @throws UntrustedTokenException if the token is of another issuer than the one the resource is
   *     bound to (message: {@link UntrustedTokenException#foreignIssuer}), or, where the
   *     destination is configured with {@link TokenKeys}, unsigned or forged (message: {@link
   *     TokenKeys#verify}); nothing changes
   * @throws StoreException if the destination cannot be reached
   */
  RegisterOutcome register(FencingToken token);

  /**
   * Applies {@code change} for {@code operation} if, in the same atomic step, the token's epoch is
   * not older than the registered one and the operation was not applied before (see the class
   * comment for the order of the checks). The epoch is checked before the operation ID: a stale
   * retry of an applied operation is {@link RejectedStale}, and {@link #lookup} tells what
   * happened. A write reports its {@link FencingStep}s to the destination's {@link StepListener} as
   * {@link FencingStep} describes for each outcome.
   *
   * @param token the fencing token
   * @param operation the operation ID
   * @param change the change to apply
   * @return {@link Applied} with the new receipt; {@link AlreadyApplied} with the stored receipt,
   *     which changes nothing but the registered epoch (raised to the token's if newer); or {@link
   *     RejectedStale}, which changes nothing ({@link RejectedStale#describe} words it for a log)
   * @throws UntrustedTokenException before the epoch is compared, if the token is of another issuer
   *     than the one the resource is bound to ({@link UntrustedTokenException#foreignIssuer}), or,
   *     where the destination is configured with {@link TokenKeys}, unsigned or forged ({@link
   *     TokenKeys#verify}); nothing changes
   * @throws OperationConflictException after the epoch check, if the operation was recorded with
   *     another request fingerprint ({@link OperationConflictException#differentRequest}); nothing
   *     changes, not even the registered epoch
   * @throws StoreException if the destination failed; when {@link StoreException#outcomeUnknown()}
   *     is false nothing was changed, when true call {@link #lookup} or retry with the same
   *     operation ID
   * @throws RuntimeException whatever the change itself or the step listener (before {@link
   *     FencingStep#AFTER_COMMIT}) throws; nothing is changed or recorded then
   */
  WriteOutcome write(FencingToken token, OperationId operation, C change);

  /**
   * Finds the receipt of an applied operation, whatever epoch is current now. A worker whose answer
   * was lost, or whose retry was rejected as stale, learns with this whether its operation landed.
   *
   * <p>A destination may prune receipts older than a retention it is configured with (the JDBC
   * store's {@code Retention}). It then never answers "never applied" for a pruned receipt: if it
   * finds no receipt but has pruned receipts of the resource, it throws {@link
   * ReceiptPrunedException}, whose {@link ReceiptPrunedException#prunedBefore() prunedBefore} tells
   * the caller which operations it can still conclude were not applied (those first attempted after
   * that instant). A write of an operation whose receipt was pruned is applied again, so the
   * retention must be longer than callers may retry an operation.
   *
   * @param resource the resource
   * @param operation the operation ID
   * @return the receipt, or empty if the operation was never applied
   * @throws UnsupportedCapabilityException if the destination lacks {@link
   *     Capability#RESULT_LOOKUP}
   * @throws ReceiptPrunedException if no receipt is kept for the operation but receipts of the
   *     resource were pruned, so whether it was applied is unknown
   * @throws StoreException if the destination cannot be reached
   */
  Optional<Receipt> lookup(ResourceId resource, OperationId operation);

  /**
   * {@return the newest registered epoch of {@code resource}, or {@link Epoch#NONE}} Informational:
   * never decide to write based on it, since a newer epoch can be registered right after it is
   * read.
   *
   * @param resource the resource
   * @throws StoreException if the destination cannot be reached
   */
  Epoch currentEpoch(ResourceId resource);
}
