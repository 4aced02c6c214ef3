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

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * What a configured destination actually guarantees, computed from its {@link Capability} set. The
 * CLI prints it and Fenceline refuses {@link #UNGUARDED} destinations unless explicitly allowed.
 * None of these is exactly-once across systems: a guarantee covers the one destination only.
 */
public enum Guarantee {
  /**
   * A write with an older epoch is rejected and a retried operation is applied at most once, both
   * checked by the destination in the same atomic step as the change.
   */
  FENCED,

  /**
   * Like {@link #FENCED} for what readers see through the publish pointer: a stale writer's staged
   * payload is never published. A consumer that reads the staging area directly is not protected.
   */
  FENCED_BY_STAGING,

  /**
   * A writer that is already stale when it begins is rejected before it sends anything, no attempt
   * that begins after the operation completed sends, and every attempt of an operation reuses one
   * idempotency key. Weaker than {@link #FENCED}: the called system cannot compare epochs, so a
   * writer whose intent was recorded before a newer owner took over can still land its request
   * during the takeover, and duplicates are prevented only as long as the called system honours
   * idempotency keys.
   */
  FENCED_AT_INTENT,

  /**
   * Retries of the same operation are deduplicated, but a stale writer is not stopped from applying
   * an operation the destination has not seen.
   */
  IDEMPOTENT_ONLY,

  /** Nothing is checked at the destination: a stale writer can overwrite a newer result. */
  UNGUARDED;

  /**
   * Computes the guarantee of a capability set. An epoch check without an operation record is
   * reported as {@link #UNGUARDED} on purpose, and an intent record without idempotency keys as at
   * most {@link #IDEMPOTENT_ONLY}: a lost answer followed by a retry would apply the change twice,
   * and Fenceline under-claims rather than over-claims.
   *
   * @param capabilities what the destination reports
   * @return the strongest guarantee the set supports
   */
  public static Guarantee of(Set<Capability> capabilities) {
    requireNonNull(capabilities, "capabilities is null");
    boolean fenced =
        capabilities.contains(Capability.NATIVE_EPOCH_CHECK)
            && capabilities.contains(Capability.OPERATION_RECORD);
    if (fenced) {
      return capabilities.contains(Capability.STAGED_PUBLISH) ? FENCED_BY_STAGING : FENCED;
    }
    if (capabilities.contains(Capability.FENCED_INTENT)
        && capabilities.contains(Capability.IDEMPOTENCY_KEY)) {
      return FENCED_AT_INTENT;
    }
    if (capabilities.contains(Capability.OPERATION_RECORD)
        || capabilities.contains(Capability.IDEMPOTENCY_KEY)) {
      return IDEMPOTENT_ONLY;
    }
    return UNGUARDED;
  }
}
