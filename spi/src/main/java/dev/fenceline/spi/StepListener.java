package dev.fenceline.spi;

/**
 * Called by destinations when a fenced write reaches a {@link FencingStep}, on the writing thread.
 * A listener may block (tests use latches to pause a worker there); a destination must hold its
 * locks across the call, exactly as it would without a listener.
 */
@FunctionalInterface
public interface StepListener {

  /** A listener that does nothing. */
  StepListener NONE = (step, token, operation) -> {};

  /**
   * The write for {@code operation} with {@code token} reached {@code step}.
   *
   * @throws RuntimeException to abort the write; the destination rolls back what is not committed
   */
  void reached(FencingStep step, FencingToken token, OperationId operation);
}
