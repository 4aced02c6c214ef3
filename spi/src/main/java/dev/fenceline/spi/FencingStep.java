package dev.fenceline.spi;

/**
 * Named points inside a fenced write where a {@link StepListener} is called. Tests pause a worker
 * at these points to show atomicity (R11 c); tracing can time them.
 */
public enum FencingStep {
  /** Right before the destination locks the resource's control record. */
  BEFORE_LOCK,
  /** The epoch was compared (and registered if newer); the change is not applied yet. */
  AFTER_EPOCH_CHECK,
  /** The change was applied and the operation recorded, not yet committed. */
  AFTER_APPLY,
  /** The atomic step committed; the answer has not been returned yet. */
  AFTER_COMMIT,
  /** A staged payload is fully stored; the pointer was not swapped yet. */
  AFTER_STAGE
}
