package dev.fenceline.core;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseSignals;
import dev.fenceline.spi.LeaseWatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lease issuer over another one that hands the test the {@link LeaseSignals} of the last watched
 * lease, so the test can play the issuer that lost contact with its store, and counts the watches
 * that are open.
 */
final class SignallingLeaseIssuer extends ForwardingLeaseIssuer {

  private final AtomicInteger openWatches = new AtomicInteger();
  private volatile LeaseSignals signals;

  SignallingLeaseIssuer(LeaseIssuer delegate) {
    super(delegate);
  }

  /** The signals of the lease watched last. */
  LeaseSignals signals() {
    LeaseSignals last = signals;
    if (last == null) {
      throw new IllegalStateException("no lease was watched (was it acquired through Fenceline?)");
    }
    return last;
  }

  /** Watches not closed yet. */
  int openWatches() {
    return openWatches.get();
  }

  @Override
  public LeaseWatch watch(Lease lease, LeaseSignals signals) {
    this.signals = requireNonNull(signals, "signals is null");
    openWatches.incrementAndGet();
    boolean[] closed = {false};
    return () -> {
      synchronized (closed) {
        if (!closed[0]) {
          closed[0] = true;
          openWatches.decrementAndGet();
        }
      }
    };
  }
}
