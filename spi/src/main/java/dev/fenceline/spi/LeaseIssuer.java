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

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Hands out leases with fencing tokens (R1, R8). An issuer is the trusted source of epochs: for
 * every resource it never hands out a smaller or equal epoch again, also after a crash and restart
 * of the issuer or of its store. Expiry is decided by the issuer's clock (a database's {@code
 * now()}, a consensus session), never by the worker's wall clock.
 *
 * <p>Implementations are thread-safe. Every method is one atomic step at the issuer's store.
 *
 * <p>A decorator (an issuer that wraps another to count, fail or delay its calls) must override
 * {@link #renew(Lease, Duration)}, not only {@link #renew(Lease)}: the one-argument form is a
 * default that calls the two-argument one, and callers such as the ShedLock bridge ({@code
 * lockAtLeastFor}, {@code extend}) call the two-argument form directly, so a decorator that
 * overrides only {@link #renew(Lease)} is bypassed by them.
 */
public interface LeaseIssuer {

  /**
   * {@return the identity of this issuer's epoch sequence, carried in every token it hands out
   * ({@link FencingToken#issuer()})} Every instance over the same store has the same identity; two
   * issuers whose epochs are unrelated have different ones. Follows {@link
   * FencingToken#validateIssuer}.
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
   * Extends the lease by its own ttl, counted from now by the issuer's clock: {@code renew(lease,
   * lease.ttl())}, with the same rules and failures. A decorator overrides {@link #renew(Lease,
   * Duration)}, which this default calls; overriding this form alone leaves the callers of the
   * other one undecorated.
   *
   * @param lease the lease
   * @return the renewed lease (same token, later expiry, same ttl)
   * @throws LeaseLostException if the lease expired, was released, a newer epoch was issued, or the
   *     token names another holder than the one the issuer recorded
   * @throws StoreException if the issuer's store cannot be reached
   */
  default Lease renew(Lease lease) {
    return renew(Objects.requireNonNull(lease, "lease is null"), lease.ttl());
  }

  /**
   * Sets the lease to end {@code ttl} from now by the issuer's clock, which lengthens or shortens
   * it, in one atomic step at the issuer's store: only the current holder (same holder name) with
   * the current epoch of this issuer can do it, and only while the lease has not expired, so an
   * expired lease is never brought back. Later {@link #renew(Lease)} calls on the returned lease
   * use {@code ttl}.
   *
   * <p>"Keep the lease until time T, then let it go" (ShedLock's {@code lockAtLeastFor} after an
   * unlock) is {@code renew(lease, T - now)}: the lease stays held, also against its own holder's
   * next {@link #tryAcquire}, and ends by expiry at T. The issuer counts {@code ttl} from when it
   * handles the call, so it ends a round trip later than T by the caller's clock, never earlier.
   * There is no separate "release at" operation because it would be exactly this.
   *
   * @param lease a lease this issuer granted
   * @param ttl the new lease length from now, positive (issuers over a store with millisecond
   *     expiry refuse less than 1 ms)
   * @return the renewed lease: same token, expiry {@code ttl} from now by the issuer's clock,
   *     {@link Lease#ttl()} the ttl the issuer stored: {@code ttl}, or {@code ttl} rounded up to
   *     the store's precision (e.g. whole milliseconds), never shorter
   * @throws IllegalArgumentException if {@code ttl} is zero, negative or shorter than the issuer
   *     supports; the message names it and nothing changed
   * @throws NullPointerException if {@code lease} or {@code ttl} is null; nothing changed
   * @throws LeaseLostException if the lease expired, was released, a newer epoch was issued, or the
   *     token names another holder than the one the issuer recorded; nothing changed
   * @throws StoreException if the issuer's store cannot be reached; the lease may or may not have
   *     its new expiry if {@link StoreException#outcomeUnknown()} is true
   */
  Lease renew(Lease lease, Duration ttl);

  /**
   * Releases the lease so another worker can acquire at once. The epoch is kept: the next acquire
   * still gets a larger one. Releasing a lease that is no longer current does nothing.
   *
   * @param lease the lease
   * @return true if this lease was current and is now released
   * @throws StoreException if the issuer's store cannot be reached
   */
  boolean release(Lease lease);

  /**
   * Reports the newest epoch and lease of {@code resource}, by the issuer's clock.
   *
   * @param resource the resource
   * @return the newest epoch and lease of {@code resource}
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
