package dev.fenceline.spi;

import java.util.Optional;
import java.util.Set;

/**
 * Where a fenced side effect lands. A destination that reports {@link
 * Capability#NATIVE_EPOCH_CHECK} and {@link Capability#OPERATION_RECORD} does all of the following
 * in one atomic step, serialized on a per-resource control record, in this order (R2 to R4):
 *
 * <ol>
 *   <li>compare the supplied epoch with the registered one: older is {@link RejectedStale}; newer
 *       is registered;
 *   <li>if the operation ID was already recorded, answer {@link AlreadyApplied} with the stored
 *       receipt;
 *   <li>otherwise apply the change and record the operation ID with its receipt.
 * </ol>
 *
 * <p>Reading the epoch first and then writing unconditionally is not a destination: a new epoch can
 * be registered in between. Implementations are thread-safe.
 *
 * @param <C> the kind of change this destination applies
 */
public interface Destination<C> {

  /** What this destination can check and record by itself. The set never changes. */
  Set<Capability> capabilities();

  /** The guarantee the capabilities support. */
  default Guarantee guarantee() {
    return Guarantee.of(capabilities());
  }

  /**
   * Registers the token's epoch so that every older epoch is rejected from now on. A new owner
   * calls this right after acquiring, which cuts the old owner off before the new one writes
   * anything. Registering the current epoch again is accepted and changes nothing.
   *
   * @return {@link Registered}, or {@link RejectedStale} if a newer epoch is registered (nothing
   *     changes)
   * @throws StoreException if the destination cannot be reached
   */
  RegisterOutcome register(FencingToken token);

  /**
   * Applies {@code change} for {@code operation} if, in the same atomic step, the token's epoch is
   * not older than the registered one and the operation was not applied before.
   *
   * @return the outcome; {@link RejectedStale} and {@link AlreadyApplied} change nothing but (for
   *     {@link AlreadyApplied} with a newer epoch) the registered epoch
   * @throws StoreException if the destination failed; when {@link StoreException#outcomeUnknown()}
   *     is false nothing was changed, when true call {@link #lookup} or retry with the same
   *     operation ID
   * @throws RuntimeException whatever the change itself throws; nothing is recorded then
   */
  WriteOutcome write(FencingToken token, OperationId operation, C change);

  /**
   * Finds the receipt of an applied operation, whatever epoch is current now. A worker whose answer
   * was lost, or whose retry was rejected as stale, learns with this whether its operation landed.
   *
   * @return the receipt, or empty if the operation was never applied
   * @throws UnsupportedCapabilityException if the destination lacks {@link
   *     Capability#RESULT_LOOKUP}
   * @throws StoreException if the destination cannot be reached
   */
  Optional<Receipt> lookup(ResourceId resource, OperationId operation);

  /**
   * The newest registered epoch of {@code resource}, or {@link Epoch#NONE}. Informational: never
   * decide to write based on it, since a newer epoch can be registered right after it is read.
   *
   * @throws StoreException if the destination cannot be reached
   */
  Epoch currentEpoch(ResourceId resource);
}
