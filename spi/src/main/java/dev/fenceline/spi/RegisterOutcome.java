package dev.fenceline.spi;

/**
 * The answer of {@link Destination#register}: either the epoch is now the registered one ({@link
 * Registered}), or a newer epoch already was ({@link RejectedStale}).
 */
public sealed interface RegisterOutcome permits Registered, RejectedStale {

  /** {@return the resource the registration was for} */
  ResourceId resource();
}
