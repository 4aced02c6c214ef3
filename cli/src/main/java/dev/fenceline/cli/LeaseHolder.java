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
package dev.fenceline.cli;

import dev.fenceline.config.LeaseConfig;
import dev.fenceline.spi.LeaseStatus;

/**
 * What this host can tell about a lease's holder: a holder in the default form {@code host:pid}
 * ({@link LeaseConfig#defaultHolder()}) that names this host and a process that is not running any
 * more has died without releasing its lease. Nothing is taken over: only the issuer's expiry frees
 * the lease safely (a holder that is merely frozen elsewhere could still write, and the issuer
 * cannot tell a dead holder from a frozen one).
 */
final class LeaseHolder {

  private LeaseHolder() {}

  /**
   * True if {@code status} is held by {@code host:pid} of this host and no process {@code pid} is
   * running here. False when unsure: another host, another holder form, a live process (which may
   * also be an unrelated process that reused the PID).
   */
  static boolean deadOnThisHost(LeaseStatus status) {
    if (!status.held() || status.holder().isEmpty()) {
      return false;
    }
    String holder = status.holder().get();
    int colon = holder.lastIndexOf(':');
    if (colon <= 0 || colon == holder.length() - 1) {
      return false;
    }
    long pid;
    try {
      pid = Long.parseLong(holder.substring(colon + 1));
    } catch (NumberFormatException e) {
      return false;
    }
    String own = LeaseConfig.defaultHolder();
    String thisHost = own.substring(0, own.lastIndexOf(':'));
    return holder.substring(0, colon).equals(thisHost)
        && pid > 0
        && ProcessHandle.of(pid).isEmpty();
  }

  /**
   * {@code held by H, a process that is no longer running on this host; the lease expires at T by
   * the issuer's clock}, for a holder that {@linkplain #deadOnThisHost died here}.
   */
  static String deadHolderLine(LeaseStatus status) {
    return "held by "
        + status.holder().orElseThrow()
        + ", a process that is no longer running on this host; the lease expires at "
        + status.expiresAt().map(Object::toString).orElse("the end of its ttl")
        + " by the issuer's clock";
  }
}
