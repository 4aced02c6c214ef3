package dev.fenceline.spi;

/**
 * The answer of a fenced write. Callers must handle all three cases; a failure to reach the
 * destination is not an outcome but a {@link StoreException}.
 *
 * <ul>
 *   <li>{@link Applied}: the epoch was current (or newer, and is now registered), the operation had
 *       not been applied, and the change and its receipt were recorded in one atomic step.
 *   <li>{@link AlreadyApplied}: the epoch was current, and the operation had been applied before;
 *       nothing changed and the original receipt is returned.
 *   <li>{@link RejectedStale}: a newer epoch is registered; nothing changed.
 * </ul>
 */
public sealed interface WriteOutcome permits Applied, AlreadyApplied, RejectedStale {

  /** {@return the resource the write was for} */
  ResourceId resource();
}
