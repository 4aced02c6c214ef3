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
