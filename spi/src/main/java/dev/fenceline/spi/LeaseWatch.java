package dev.fenceline.spi;

/**
 * A running {@link LeaseIssuer#watch}: closing it stops the issuer's signals for that lease and
 * frees what the issuer kept for it. Idempotent; never throws.
 */
@FunctionalInterface
public interface LeaseWatch extends AutoCloseable {

  /** A watch that watches nothing: what issuers without signals return. */
  LeaseWatch NONE = () -> {};

  /** Stops the signals for the lease. */
  @Override
  void close();
}
