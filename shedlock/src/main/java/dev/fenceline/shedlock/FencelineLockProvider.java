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
package dev.fenceline.shedlock;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import net.javacrumbs.shedlock.support.Utils;

/**
 * A ShedLock {@link ExtensibleLockProvider} over any Fenceline {@link LeaseIssuer} (a {@code
 * JdbcStore}'s on SQLite or PostgreSQL, a {@code ZkStore}'s on ZooKeeper): each ShedLock lock is a
 * Fenceline lease, so every lock carries a fencing token, which the task reads with {@link
 * FencelineLocks#currentToken()} and passes to fenced destinations (R10: without them the lock is
 * only an efficiency lock).
 *
 * <p><b>Mapping.</b>
 *
 * <ul>
 *   <li>The lock name is the {@link ResourceId} as it is: a ShedLock job and a Fenceline job on the
 *       same name share one epoch sequence and exclude each other. A name that is not a valid
 *       resource ID (for example one with a space or a {@code :}) is refused with an {@link
 *       IllegalArgumentException} naming it and the rules: 1 to 200 characters from {@code
 *       [A-Za-z0-9._-]} in segments separated by {@code /}.
 *   <li>{@code lock}: {@link LeaseIssuer#tryAcquire} with ttl = {@code lockAtMostUntil} − now by
 *       ShedLock's {@link ClockProvider} (at least 1 ms, the shortest lease issuers grant); the
 *       issuer counts it from its own clock. Empty if the lease is held, also by this provider:
 *       locks are not re-entrant.
 *   <li>{@code unlock}: if {@code lockAtLeastUntil} is still ahead, {@link LeaseIssuer#renew(Lease,
 *       Duration)} to the time left, so the lease stays held until then and ends by expiry;
 *       otherwise {@link LeaseIssuer#release}. A lease that was already lost (expired and maybe
 *       taken over) is left alone and logged.
 *   <li>{@code extend(lockAtMostFor, lockAtLeastFor)}: {@link LeaseIssuer#renew(Lease, Duration)}
 *       with ttl {@code lockAtMostFor}; returns a new lock with the same token, after which the old
 *       one throws {@link IllegalStateException} on {@code unlock} and {@code extend}. A lease that
 *       expired or was taken over is never revived: {@code extend} returns empty and clears the
 *       token from the thread; the lock may then still be unlocked, which does nothing more.
 * </ul>
 *
 * <p><b>Store failures</b> are thrown as ShedLock's {@link LockException} with the issuer's {@link
 * StoreException} as cause, as ShedLock's own JDBC providers do: from {@code lock} the task does
 * not run (if the failure's outcome was unknown the lease may have been granted; it then ends by
 * itself at {@code lockAtMostFor}); from {@code extend} the lock stays as it was and may be
 * extended again or unlocked; from {@code unlock} the lock counts as unlocked and its lease ends by
 * itself at its expiry.
 *
 * <p>Thread-safe; one provider serves every job of an application. Renewals of a ZooKeeper issuer's
 * leases go through the client that acquired them, which a provider over one issuer always does.
 */
public final class FencelineLockProvider implements ExtensibleLockProvider {

  /** The shortest lease a lock gets: issuers over millisecond clocks grant no shorter one. */
  static final Duration SHORTEST_TTL = Duration.ofMillis(1);

  /** Longer ttls are believed for this long only, so that nanosecond arithmetic cannot overflow. */
  private static final Duration LONGEST_BELIEF = Duration.ofDays(365L * 100);

  private static final int MAX_HOST_LENGTH = 100;

  private final LeaseIssuer issuer;
  private final String holder;

  /**
   * A provider over {@code issuer} with a holder name unique to this provider instance: {@code
   * <host>:<pid>:<8 random hex digits>}, for example {@code app-7f9c:4242:1a2b3c4d} (the host name
   * as ShedLock's {@code Utils.getHostname()} finds it, cut to 100 characters). Two instances of an
   * application, or two providers in one JVM, never share a holder name, so neither can renew or
   * release the other's lock.
   *
   * @param issuer the lease issuer, e.g. {@code jdbcStore.leaseIssuer()}
   */
  public FencelineLockProvider(LeaseIssuer issuer) {
    this(issuer, defaultHolder());
  }

  /**
   * A provider over {@code issuer} that acquires as {@code holder}. Give every instance of the
   * application its own name: two providers with the same holder name can renew and release each
   * other's locks.
   *
   * @param issuer the lease issuer, e.g. {@code jdbcStore.leaseIssuer()}
   * @param holder the holder name recorded with each lease (see {@link
   *     FencingToken#validateHolder})
   * @throws IllegalArgumentException if {@code holder} is not a valid holder name
   */
  public FencelineLockProvider(LeaseIssuer issuer, String holder) {
    this.issuer = requireNonNull(issuer, "issuer is null");
    this.holder = FencingToken.validateHolder(holder);
  }

  /** The holder name this provider acquires as. */
  public String holder() {
    return holder;
  }

  /**
   * Acquires the lock's lease if nobody holds it, and sets its token on this thread ({@link
   * FencelineLocks}).
   *
   * @return the lock, or empty if the lease is held (by another instance, or by this provider)
   * @throws IllegalArgumentException if the lock name is not a valid resource ID
   * @throws LockException if the issuer's store failed ({@link StoreException} as cause)
   */
  @Override
  public Optional<SimpleLock> lock(LockConfiguration configuration) {
    requireNonNull(configuration, "configuration is null");
    String name = configuration.getName();
    ResourceId resource = resourceOf(name);
    Duration ttl = ttlUntil(configuration.getLockAtMostUntil());
    long sent = System.nanoTime();
    Optional<Lease> lease;
    try {
      lease = issuer.tryAcquire(resource, holder, ttl);
    } catch (StoreException e) {
      throw failure("lock", name, e, "the task did not run; ShedLock tries again at its next run");
    }
    return lease.map(
        granted ->
            new FencelineLock(
                this,
                configuration,
                granted,
                FencelineLocks.start(name, granted.token(), deadline(sent, ttl))));
  }

  LeaseIssuer issuer() {
    return issuer;
  }

  @Override
  public String toString() {
    return "FencelineLockProvider[" + issuer + " as " + holder + "]";
  }

  /** The time from now (ShedLock's clock) until {@code until}, at least {@link #SHORTEST_TTL}. */
  static Duration ttlUntil(Instant until) {
    Duration left = Duration.between(ClockProvider.now(), until);
    return left.compareTo(SHORTEST_TTL) < 0 ? SHORTEST_TTL : left;
  }

  /**
   * When a lease of {@code ttl} requested at {@code sentNanos} ends at the latest by this JVM's
   * monotonic clock: the issuer counts the ttl from when it handled the request, which is later.
   */
  static long deadline(long sentNanos, Duration ttl) {
    return sentNanos + (ttl.compareTo(LONGEST_BELIEF) > 0 ? LONGEST_BELIEF : ttl).toNanos();
  }

  static LockException failure(String action, String name, StoreException cause, String hint) {
    return new LockException(
        "Cannot " + action + " " + name + ": " + cause.getMessage() + " (" + hint + ")", cause);
  }

  private static ResourceId resourceOf(String name) {
    try {
      return ResourceId.of(name);
    } catch (IllegalArgumentException e) {
      // The resource ID's message names the value (quoted, control characters escaped).
      throw new IllegalArgumentException(
          "Cannot use a ShedLock lock name as a Fenceline resource ID: "
              + e.getMessage()
              + " (lock names must be 1 to "
              + ResourceId.MAX_LENGTH
              + " characters from [A-Za-z0-9._-] in segments separated by '/', e.g. nightly-report"
              + " or reports/nightly)",
          e);
    }
  }

  private static String defaultHolder() {
    String host = Utils.getHostname();
    if (host.length() > MAX_HOST_LENGTH) {
      host = host.substring(0, MAX_HOST_LENGTH);
    }
    return host
        + ":"
        + ProcessHandle.current().pid()
        + ":"
        + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  }
}
