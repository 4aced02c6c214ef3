package dev.fenceline.core;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.StoreException;
import java.time.Duration;

/**
 * A lease this worker acquired, kept alive by background renewal, with the worker's own belief
 * about it measured on the monotonic clock (R8, R9).
 *
 * <p>The belief ({@link #isLocallyValid()}) starts when the acquire or renew request was
 * <em>sent</em>, so it never outlives the issuer's lease if the two clocks run at the same rate.
 * Use it to stop heavy work early (an efficiency measure, R10). Never use it to decide whether a
 * write is safe: a process can stall right after checking it. Writes carry {@link #token()} and the
 * destination decides.
 *
 * <p>Thread-safe. Closing it stops renewal and releases the lease at the issuer.
 */
public final class HeldLease implements AutoCloseable {

  /** What this worker believes about its lease. */
  public enum State {
    /** Acquired and, as far as this worker knows, not lost. */
    HELD,
    /** The issuer refused a renewal: the lease expired or a newer epoch was issued. */
    LOST,
    /** Released by this worker. */
    RELEASED
  }

  private static final System.Logger LOG = System.getLogger(HeldLease.class.getName());

  private final LeaseIssuer issuer;
  private final MonotonicClock clock;
  private final Object lock = new Object();
  private Lease lease;
  private long localDeadlineNanos;
  private State state = State.HELD;
  private Runnable onClose = () -> {};

  HeldLease(LeaseIssuer issuer, MonotonicClock clock, Lease lease, long requestSentNanos) {
    this.issuer = requireNonNull(issuer, "issuer is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.lease = requireNonNull(lease, "lease is null");
    this.localDeadlineNanos = requestSentNanos + lease.ttl().toNanos();
  }

  void onClose(Runnable action) {
    synchronized (lock) {
      this.onClose = requireNonNull(action, "action is null");
    }
  }

  /** The fencing token every write under this lease carries. */
  public FencingToken token() {
    synchronized (lock) {
      return lease.token();
    }
  }

  /** The lease as last granted by the issuer. */
  public Lease lease() {
    synchronized (lock) {
      return lease;
    }
  }

  /** What this worker believes about its lease. */
  public State state() {
    synchronized (lock) {
      return state;
    }
  }

  /**
   * True if the lease is held and its local deadline has not passed on the monotonic clock. An
   * efficiency hint only (see the class comment).
   */
  public boolean isLocallyValid() {
    return !remaining().isZero();
  }

  /** Time left until the local deadline, zero if passed or the lease is not held. */
  public Duration remaining() {
    synchronized (lock) {
      if (state != State.HELD) {
        return Duration.ZERO;
      }
      long left = localDeadlineNanos - clock.nanoTime();
      return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }
  }

  /**
   * Renews the lease now. Background renewal calls this; tests and callers may too.
   *
   * @return true if renewed; false if the lease was lost or is not held
   * @throws StoreException if the issuer could not be reached; the local deadline is unchanged and
   *     will lapse unless a later renewal succeeds
   */
  public boolean renewNow() {
    Lease current;
    synchronized (lock) {
      if (state != State.HELD) {
        return false;
      }
      current = lease;
    }
    long sent = clock.nanoTime();
    try {
      Lease renewed = issuer.renew(current);
      synchronized (lock) {
        if (state != State.HELD) {
          return false;
        }
        lease = renewed;
        localDeadlineNanos = sent + renewed.ttl().toNanos();
        return true;
      }
    } catch (LeaseLostException e) {
      synchronized (lock) {
        if (state == State.HELD) {
          state = State.LOST;
        }
      }
      LOG.log(System.Logger.Level.WARNING, e.getMessage());
      return false;
    }
  }

  /** Renewal from the background: failures are logged, never thrown. */
  void renewQuietly() {
    try {
      renewNow();
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot renew lease " + token() + ": " + e.getMessage() + " (will retry)",
          e);
    }
  }

  /**
   * Stops renewal and releases the lease at the issuer if this worker still holds it. Idempotent.
   *
   * @throws StoreException if the issuer could not be reached; the lease then expires by itself
   */
  @Override
  public void close() {
    Lease toRelease;
    Runnable action;
    synchronized (lock) {
      action = onClose;
      onClose = () -> {};
      toRelease = state == State.HELD ? lease : null;
      state = state == State.LOST ? State.LOST : State.RELEASED;
    }
    action.run();
    if (toRelease != null) {
      issuer.release(toRelease);
    }
  }

  @Override
  public String toString() {
    return "HeldLease[" + token() + ", " + state() + ", remaining " + remaining() + "]";
  }
}
