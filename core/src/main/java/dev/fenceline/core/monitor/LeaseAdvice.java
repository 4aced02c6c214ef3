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
package dev.fenceline.core.monitor;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A recommended lease ttl and renew interval, chosen from observed pauses and fencing counts, with
 * the reasoning in a few lines (R8).
 *
 * <h2>The formula</h2>
 *
 * Renewal runs every {@code ttl / 3} (the {@code Fenceline} default) and each renewal takes one
 * round trip {@code rtt} to the issuer. A lease survives a pause {@code P} that begins just before
 * a renewal was due if {@code ttl / 3 + P + rtt <= ttl}; it survives the same pause plus one failed
 * renewal if {@code 2 ttl / 3 + P + rtt <= ttl}. So:
 *
 * <ul>
 *   <li>ordinary pauses, the 99.9th percentile, must fit with room for a failed renewal: {@code ttl
 *       >= 3 × (p999 + rtt)};
 *   <li>the longest pause seen must fit between two renewals: {@code ttl >= 1.5 × (max + rtt)};
 *   <li>and {@code ttl >= minimumTtl} (default 1 s).
 * </ul>
 *
 * The ttl is the largest of the three, rounded up to 100 ms (to 1 s above 10 s); the renew interval
 * is a third of it.
 *
 * <h2>What it does not promise</h2>
 *
 * The advice only reflects the pauses that happened while the monitor watched. Lease plus retry is
 * not a universal bound: real takeover time adds detection, retries, network and election, and a
 * pause longer than any ttl can still happen. A longer ttl makes false takeovers rarer and failover
 * slower; it never makes a stalled worker's late write safe. The destination's epoch check does.
 *
 * @param ttl the recommended lease ttl
 * @param renewInterval how often to renew, a third of {@code ttl}
 * @param reasoning the observations and steps that led here, one sentence a line
 */
public record LeaseAdvice(Duration ttl, Duration renewInterval, List<String> reasoning) {

  /**
   * The shortest ttl the advice recommends unless told otherwise ({@link Inputs#minimumTtl}): below
   * it an ordinary pause or a slow renewal round trip costs a healthy worker its lease. {@code
   * fenceline doctor} warns about a configured ttl below it.
   */
  public static final Duration DEFAULT_MINIMUM_TTL = Duration.ofSeconds(1);

  private static final Duration ENOUGH_OBSERVATION = Duration.ofMinutes(10);
  private static final long ENOUGH_WAKE_UPS = 1000;

  /** Validates that the ttl is positive, the renewal shorter, and the reasoning not empty. */
  public LeaseAdvice {
    requireNonNull(ttl, "ttl is null");
    requireNonNull(renewInterval, "renewInterval is null");
    reasoning = List.copyOf(requireNonNull(reasoning, "reasoning is null"));
    if ((ttl.isNegative() || ttl.isZero())
        || (renewInterval.isNegative() || renewInterval.isZero())
        || renewInterval.compareTo(ttl) >= 0) {
      throw new IllegalArgumentException(
          "Cannot create lease advice: ttl "
              + ttl
              + " and renew interval "
              + renewInterval
              + " must be positive with the renew interval below the ttl");
    }
    if (reasoning.isEmpty()) {
      throw new IllegalArgumentException("Cannot create lease advice: the reasoning is empty");
    }
  }

  /** Advice from pauses alone, with no fencing counts, round trip or current ttl. */
  public static LeaseAdvice from(PauseSnapshot pauses) {
    return basedOn(pauses).advise();
  }

  /** Starts advice from {@code pauses}; add what else is known, then call {@link Inputs#advise}. */
  public static Inputs basedOn(PauseSnapshot pauses) {
    return new Inputs(pauses);
  }

  /** The reasoning, one line each. */
  public String explain() {
    return String.join(System.lineSeparator(), reasoning);
  }

  @Override
  public String toString() {
    return "ttl " + format(ttl) + ", renew every " + format(renewInterval);
  }

  /** What the advice is based on, beyond the pauses. */
  public static final class Inputs {

    private final PauseSnapshot pauses;
    private FencingCounts counts = FencingCounts.NONE;
    private Duration renewRoundTrip = Duration.ZERO;
    private Duration currentTtl;
    private Duration minimumTtl = DEFAULT_MINIMUM_TTL;

    private Inputs(PauseSnapshot pauses) {
      this.pauses = requireNonNull(pauses, "pauses is null");
    }

    /** Takeovers, lost leases and stale rejections seen over about the same time. */
    public Inputs fencingCounts(FencingCounts counts) {
      this.counts = requireNonNull(counts, "counts is null");
      return this;
    }

    /** How long one renewal takes at the issuer, e.g. its p99 latency (default: not known). */
    public Inputs renewRoundTrip(Duration renewRoundTrip) {
      requireNonNull(renewRoundTrip, "renewRoundTrip is null");
      if (renewRoundTrip.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot advise on a lease: renew round trip " + renewRoundTrip + " is negative");
      }
      this.renewRoundTrip = renewRoundTrip;
      return this;
    }

    /** The ttl in use now, to compare against. */
    public Inputs currentTtl(Duration currentTtl) {
      requireNonNull(currentTtl, "currentTtl is null");
      if ((currentTtl.isNegative() || currentTtl.isZero())) {
        throw new IllegalArgumentException(
            "Cannot advise on a lease: current ttl " + currentTtl + " is not positive");
      }
      this.currentTtl = currentTtl;
      return this;
    }

    /** The shortest ttl to recommend whatever the pauses (default 1 s). */
    public Inputs minimumTtl(Duration minimumTtl) {
      requireNonNull(minimumTtl, "minimumTtl is null");
      if ((minimumTtl.isNegative() || minimumTtl.isZero())) {
        throw new IllegalArgumentException(
            "Cannot advise on a lease: minimum ttl " + minimumTtl + " is not positive");
      }
      this.minimumTtl = minimumTtl;
      return this;
    }

    /** Applies the formula in the {@link LeaseAdvice} class comment. */
    public LeaseAdvice advise() {
      List<String> lines = new ArrayList<>();
      long rtt = renewRoundTrip.toNanos();
      long p999 = pauses.p999().toNanos();
      long max = pauses.max().toNanos();
      lines.add(
          "Observed "
              + format(pauses.observedFor())
              + " ("
              + pauses.wakeUps()
              + " wake-ups every "
              + format(pauses.interval())
              + "): pause p50 "
              + format(pauses.p50())
              + ", p99 "
              + format(pauses.p99())
              + ", p999 "
              + format(pauses.p999())
              + ", max "
              + format(pauses.max())
              + "; "
              + pauses.pausesAboveThreshold()
              + " pauses of "
              + format(pauses.threshold())
              + " or more.");
      long forOrdinary = Math.multiplyExact(3, p999 + rtt);
      lines.add(
          "Ordinary pauses plus one failed renewal must fit in the lease: ttl >= 3 × (p999 "
              + format(pauses.p999())
              + " + round trip "
              + format(renewRoundTrip)
              + ") = "
              + format(Duration.ofNanos(forOrdinary))
              + ".");
      long forLongest = Math.multiplyExact(3, max + rtt) / 2;
      lines.add(
          "The longest pause must fit between two renewals (renew every ttl/3): ttl >= 1.5 × (max "
              + format(pauses.max())
              + " + round trip "
              + format(renewRoundTrip)
              + ") = "
              + format(Duration.ofNanos(forLongest))
              + ".");
      long needed = Math.max(Math.max(forOrdinary, forLongest), minimumTtl.toNanos());
      Duration ttl = roundUp(Duration.ofNanos(needed));
      Duration renew = Duration.ofMillis(ttl.toMillis() / 3);
      lines.add(
          "Advice: ttl "
              + format(ttl)
              + ", renew every "
              + format(renew)
              + (needed == minimumTtl.toNanos() && needed > Math.max(forOrdinary, forLongest)
                  ? " (the minimum ttl " + format(minimumTtl) + "; pauses need less)."
                  : "."));
      if (renewRoundTrip.isZero()) {
        lines.add(
            "The renewal round trip was not given: add the issuer's p99 renew latency"
                + " (renewRoundTrip) for a ttl that also covers it.");
      }
      if (currentTtl != null) {
        lines.add(compareWithCurrent(ttl, max + rtt));
      }
      lines.addAll(fencingLines(max + rtt));
      if (pauses.observedFor().compareTo(ENOUGH_OBSERVATION) < 0
          || pauses.wakeUps() < ENOUGH_WAKE_UPS) {
        lines.add(
            "Only "
                + format(pauses.observedFor())
                + " and "
                + pauses.wakeUps()
                + " wake-ups observed: rare pauses may not have happened yet; advise again after"
                + " 10 min or more under real load.");
      }
      lines.add(
          "Lease + retry is not a universal bound: takeover time adds detection, retries, network"
              + " and election, and a pause longer than any ttl can still happen; the"
              + " destination's epoch check keeps a paused worker's late writes out, not the ttl.");
      return new LeaseAdvice(ttl, renew, lines);
    }

    private String compareWithCurrent(Duration advised, long longestWithRoundTrip) {
      String current = "Current ttl " + format(currentTtl);
      if (currentTtl.compareTo(advised) < 0) {
        boolean longestLosesIt = longestWithRoundTrip * 3 > currentTtl.toNanos() * 2;
        return current
            + " is shorter than advised"
            + (longestLosesIt
                ? ": a pause like the longest seen ("
                    + format(pauses.max())
                    + ") can outlast its renewal slack and stop a healthy worker."
                : ": ordinary pauses leave no room for a failed renewal.");
      }
      if (currentTtl.compareTo(advised.multipliedBy(2)) > 0) {
        return current
            + " is more than twice the advice: a crashed holder's resource waits up to "
            + format(currentTtl)
            + " for a takeover; "
            + format(advised)
            + " would fail over sooner.";
      }
      return current + " is within the advice (between it and twice it).";
    }

    private List<String> fencingLines(long longestWithRoundTrip) {
      List<String> lines = new ArrayList<>();
      String over = " in " + format(counts.observedFor());
      if (counts.lostLeases() > 0) {
        boolean pausesExplain =
            currentTtl == null || longestWithRoundTrip * 3 > currentTtl.toNanos() * 2;
        lines.add(
            counts.lostLeases()
                + " lost leases"
                + over
                + (pausesExplain
                    ? ": pauses up to "
                        + format(pauses.max())
                        + (currentTtl == null
                            ? " may explain them; the ttl above covers such pauses."
                            : " outlast the renewal slack of the current ttl; lengthen it.")
                    : " though no pause came near the current ttl: look at renewals (issuer"
                        + " reachability, round trips), not at the ttl."));
      }
      if (counts.takeovers() > 0) {
        lines.add(
            counts.takeovers()
                + " takeovers"
                + over
                + ": each follows a holder that crashed or paused longer than its lease; if the"
                + " holders' monitors show such pauses the lease is too short for them, if they"
                + " crashed a shorter ttl fails over sooner.");
      }
      if (counts.staleRejections() > 0) {
        lines.add(
            counts.staleRejections()
                + " stale rejections"
                + over
                + ": destinations refused writes of workers that had lost their lease (fencing"
                + " worked; each is a takeover that a longer ttl might have avoided).");
      }
      return lines;
    }
  }

  static Duration roundUp(Duration duration) {
    long step = duration.compareTo(Duration.ofSeconds(10)) > 0 ? 1_000_000_000L : 100_000_000L;
    long nanos = duration.toNanos();
    return Duration.ofNanos(Math.floorDiv(nanos + step - 1, step) * step);
  }

  static String format(Duration duration) {
    long nanos = duration.toNanos();
    if (nanos == 0) {
      return "0 ms";
    }
    if (nanos < 10_000_000L) {
      return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }
    if (nanos < 1_000_000_000L) {
      return (nanos / 1_000_000L) + " ms";
    }
    if (nanos < 60_000_000_000L) {
      return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
    long seconds = duration.toSeconds();
    return (seconds / 60) + " min" + (seconds % 60 == 0 ? "" : " " + (seconds % 60) + " s");
  }
}
