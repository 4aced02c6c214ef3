package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * The epoch is registered: it was newer than or equal to the registered one. From now on every
 * write with an older epoch is rejected.
 *
 * @param resource the resource
 * @param epoch the registered epoch
 * @param previous the epoch registered before this call ({@link Epoch#NONE} if none)
 */
public record Registered(ResourceId resource, Epoch epoch, Epoch previous)
    implements RegisterOutcome {

  /**
   * Validates the outcome.
   *
   * @param resource the resource
   * @param epoch the epoch
   * @param previous the previous value
   */
  public Registered {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(previous, "previous is null");
  }
}
