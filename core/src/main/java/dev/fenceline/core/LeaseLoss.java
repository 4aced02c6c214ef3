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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.ResourceId;
import java.time.Instant;
import java.util.Optional;

/**
 * Why and when this worker stopped believing it holds a lease, as handed to {@link
 * HeldLease#onLost} and {@link EfficiencyLease#onLost} listeners.
 *
 * <p>A loss is a signal to stop work early, never a safety guarantee: by the time a listener runs,
 * this process may already have stalled past the lease, and a process that stalls never runs its
 * listener in time. Fenced writes stay safe only because the destination compares the token's epoch
 * (R9, R10). The record carries no fencing token, so a loss of an {@link EfficiencyLease} cannot be
 * turned into a publish.
 *
 * @param resource the leased resource
 * @param epoch the epoch of the lost lease
 * @param reason why the lease is considered lost
 * @param newerEpoch the newer epoch the issuer handed out, present only for {@link
 *     Reason#SUPERSEDED}
 * @param detectedAt when this worker noticed, by the wall clock: for logs and correlation only,
 *     never evidence of ownership (R9)
 * @param detail a human-readable explanation (the issuer's answer, the failure, the overrun)
 */
public record LeaseLoss(
    ResourceId resource,
    Epoch epoch,
    Reason reason,
    Optional<Epoch> newerEpoch,
    Instant detectedAt,
    String detail) {

  /** Why a lease is considered lost. */
  public enum Reason {
    /** The issuer refused a renewal and has handed out a newer epoch (see {@link #newerEpoch}). */
    SUPERSEDED,
    /**
     * The issuer refused a renewal: the lease expired or was released at the issuer, and no newer
     * epoch was seen (yet).
     */
    REFUSED,
    /**
     * The local deadline (ttl minus the safety margin, counted from when the last successful
     * acquire or renew request was sent) passed while no renewal had failed or was waiting for an
     * answer: typically this process stalled, or renewals were not scheduled in time.
     */
    DEADLINE_PASSED,
    /**
     * The local deadline passed while renewals failed (the issuer could not be reached) or were
     * still waiting for an answer, or passed at a bound the issuer set because it lost contact with
     * its store (for ZooKeeper: the connection was suspended, and the ensemble expires the holder's
     * session once the session timeout has passed since the last contact).
     */
    ISSUER_UNREACHABLE,
    /**
     * The issuer signalled that the lease ended before its ttl, for example with the ZooKeeper
     * session that held it (Curator reported the session lost, or the client has a new session). No
     * newer epoch is known yet.
     */
    ENDED_AT_ISSUER
  }

  /** Validates the loss. */
  public LeaseLoss {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(newerEpoch, "newerEpoch is null (use Optional.empty())");
    requireNonNull(detectedAt, "detectedAt is null");
    requireNonNull(detail, "detail is null");
    if (reason == Reason.SUPERSEDED && newerEpoch.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot describe the loss of "
              + resource
              + " at epoch "
              + epoch
              + ": SUPERSEDED needs"
              + " the newer epoch (use REFUSED if it is unknown)");
    }
    if (reason != Reason.SUPERSEDED && newerEpoch.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot describe the loss of "
              + resource
              + " at epoch "
              + epoch
              + ": "
              + reason
              + " carries no newer epoch, got "
              + newerEpoch.get()
              + " (use SUPERSEDED)");
    }
    if (newerEpoch.isPresent() && !newerEpoch.get().isNewerThan(epoch)) {
      throw new IllegalArgumentException(
          "Cannot describe the loss of "
              + resource
              + " at epoch "
              + epoch
              + ": newer epoch "
              + newerEpoch.get()
              + " is not newer (pass the issuer's newest epoch)");
    }
  }

  /** One line for logs, e.g. {@code Lost the lease on report at epoch 3: SUPERSEDED by epoch 4}. */
  public String describe() {
    return "Lost the lease on "
        + resource
        + " at epoch "
        + epoch
        + ": "
        + reason
        + newerEpoch.map(newer -> " by epoch " + newer).orElse("")
        + " ("
        + detail
        + ")";
  }
}
