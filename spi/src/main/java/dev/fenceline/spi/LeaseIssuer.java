package dev.fenceline.spi;

import java.time.Duration;
import java.util.Optional;

/**
 * Hands out leases with fencing tokens (R1, R8). An issuer is the trusted source of epochs: for
 * every resource it never hands out a smaller or equal epoch again, also after a crash and restart
 * of the issuer or of its store. Expiry is decided by the issuer's clock (a database's {@code
 * now()}, a consensus session), never by the worker's wall clock.
 *
 * <p>Implementations are thread-safe. Every method is one atomic step at the issuer's store.
 */
public interface LeaseIssuer {

  /**
   * The identity of this issuer's epoch sequence, carried in every token it hands out ({@link
   * FencingToken#issuer()}). Every instance over the same store has the same identity; two issuers
   * whose epochs are unrelated have different ones. Follows {@link FencingToken#validateIssuer}.
   */
  String id();

  /**
   * Acquires the lease on {@code resource} if it is free, released or expired by the issuer's
   * clock, and increments the resource's epoch in the same atomic step.
   *
   * @param resource the resource to lease
   * @param holder who asks, for diagnostics; should be unique per worker instance
   * @param ttl the lease length, positive
   * @return the new lease, or empty if another lease on the resource is still valid (also one held
   *     by the same holder name: a holder does not get a second lease on top of its first)
   * @throws IllegalArgumentException if {@code holder} or {@code ttl} is invalid
   * @throws StoreException if the issuer's store cannot be reached; nothing was acquired unless
   *     {@link StoreException#outcomeUnknown()} is true
   */
  Optional<Lease> tryAcquire(ResourceId resource, String holder, Duration ttl);

  /**
   * Extends the lease by its ttl, counted from now by the issuer's clock. Only the current holder
   * (same holder name) with the current epoch of this issuer can renew, and only while the lease
   * has not expired.
   *
   * @return the renewed lease (same token, later expiry)
   * @throws LeaseLostException if the lease expired, was released, a newer epoch was issued, or the
   *     token names another holder than the one the issuer recorded
   * @throws StoreException if the issuer's store cannot be reached
   */
  Lease renew(Lease lease);

  /**
   * Releases the lease so another worker can acquire at once. The epoch is kept: the next acquire
   * still gets a larger one. Releasing a lease that is no longer current does nothing.
   *
   * @return true if this lease was current and is now released
   * @throws StoreException if the issuer's store cannot be reached
   */
  boolean release(Lease lease);

  /**
   * Reports the newest epoch and lease of {@code resource}, by the issuer's clock.
   *
   * @throws StoreException if the issuer's store cannot be reached
   */
  LeaseStatus status(ResourceId resource);

  /**
   * Starts telling {@code signals} what this issuer learns about {@code lease} between renewals
   * that could end it before its ttl: a lost connection to its store that the lease cannot outlast
   * for long ({@link LeaseSignals#endsWithin}), a lease that ended with the session that held it
   * ({@link LeaseSignals#ended}), contact that came back ({@link LeaseSignals#renewSoon}). The
   * holder calls it once, right after acquiring, from the process that acquired; the signals go
   * until the returned watch is closed (on release or loss).
   *
   * <p>The default watches nothing and returns {@link LeaseWatch#NONE}: the holder's belief then
   * ends only by its ttl, a refused renewal or a renewal that keeps failing. An issuer whose leases
   * can end before their ttl while the holder hears nothing (a ZooKeeper session that the ensemble
   * expires) overrides it. Signals are an efficiency measure like the belief they shorten; the
   * destination's epoch check stays the guarantee (R9, R10).
   *
   * <p>Does no I/O and never throws: an issuer that cannot watch returns {@link LeaseWatch#NONE}.
   *
   * @param lease a lease this issuer granted to this process
   * @param signals where to report; its methods are called from any thread, never while a lock of
   *     the issuer is held
   * @return the running watch; close it to stop the signals
   */
  default LeaseWatch watch(Lease lease, LeaseSignals signals) {
    return LeaseWatch.NONE;
  }
}
