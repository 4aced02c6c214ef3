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

/**
 * What an issuer tells the holder of one lease between renewals ({@link LeaseIssuer#watch}): that
 * the lease may end before its ttl says, that it has ended, or that a renewal now would help. The
 * holder (the core module's lease keeper) implements it and lowers or ends its local belief; the
 * belief only ever gets shorter through these signals, and only a successful {@link
 * LeaseIssuer#renew} sent after the last {@link #endsWithin} lengthens it again.
 *
 * <p>Like the belief itself, the signals serve efficiency (stop work before another worker starts),
 * never safety: the destination's epoch check decides whether a write is accepted (R9, R10).
 *
 * <p>Implementations are thread-safe, return quickly and never block or throw: an issuer may call
 * them from its client library's event thread. Calls for a lease that is no longer held are
 * ignored.
 */
public interface LeaseSignals {

  /**
   * The lease cannot be counted on for longer than {@code atMost} from now, for example because the
   * issuer lost contact with its store and the lease ends at the store once contact has been lost
   * for long enough. The holder's local deadline becomes at most now plus {@code atMost}, measured
   * on its own monotonic clock; a renewal that was sent before this call does not lift the bound,
   * one sent after it does.
   *
   * @param atMost how long the lease can still be believed, zero or positive (negative counts as
   *     zero)
   * @param reason why, for the holder's loss report, e.g. {@code the connection to ZooKeeper was
   *     suspended ...}
   */
  void endsWithin(Duration atMost, String reason);

  /**
   * The lease has ended at the issuer, or can no longer be kept (for example the store session that
   * held it is gone). Final: the holder stops believing at once and never renews it again.
   *
   * @param reason why, for the holder's loss report
   */
  void ended(String reason);

  /**
   * A renewal now could lift an earlier {@link #endsWithin} bound, for example because the issuer
   * reached its store again with the same session. The holder renews soon if it renews in the
   * background; it does not lengthen the belief by itself.
   *
   * @param reason why, for logs
   */
  void renewSoon(String reason);
}
