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
package dev.fenceline.chaos.planted;

import java.util.Locale;

/**
 * The bugs a {@link PlantedBugTargetFactory} destination can carry, one at a time ({@link #NONE}:
 * correct). Each is a plausible mistake of an adapter author that the chaos checker must catch.
 */
public enum PlantedBug {
  /** The correct destination: the whole step in one transaction, in the documented order. */
  NONE,
  /** The write never compares epochs (register still records them). */
  NO_EPOCH_CHECK,
  /**
   * The change and its operation record commit in one transaction, the epoch is compared in a
   * second: a stale writer is answered RejectedStale, but its change stays.
   */
  CHECK_AFTER_WRITE,
  /**
   * The compare-and-swap steps ({@code CasPointerSteps}) over a store whose replace does not
   * compare the version it read: two decisions made on one version both land, the later one
   * overwriting the other.
   */
  UNCONDITIONAL_CAS,
  /**
   * The receipt commits in one transaction, the change (with the epoch check) in a second: a stale
   * second step leaves a receipt for a change that never happened.
   */
  RECEIPT_BEFORE_CHANGE,
  /** The operation record is never consulted: a retry applies again, with a new receipt. */
  RETRY_REAPPLIED;

  /** {@return the setting value naming this bug, e.g. {@code no-epoch-check}} */
  public String setting() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The bug a {@code bug} setting names.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static PlantedBug of(String setting) {
    for (PlantedBug bug : values()) {
      if (bug.setting().equals(setting)) {
        return bug;
      }
    }
    StringBuilder accepted = new StringBuilder();
    for (PlantedBug bug : values()) {
      accepted.append(accepted.length() == 0 ? "" : " | ").append(bug.setting());
    }
    throw new IllegalArgumentException(
        "Cannot plant bug \"" + setting + "\": the setting bug takes one of " + accepted);
  }
}
