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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseAdviceTest {

  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  private static PauseSnapshot pauses(Duration p999, Duration max, Duration observedFor) {
    Duration small = Duration.ofMillis(1);
    return new PauseSnapshot(
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        observedFor,
        12_000,
        7,
        Duration.ofNanos(120_000),
        small,
        small.compareTo(p999) < 0 ? small : p999,
        p999,
        max);
  }

  private static PauseSnapshot pauses(long p999Millis, long maxMillis) {
    return pauses(Duration.ofMillis(p999Millis), Duration.ofMillis(maxMillis), TEN_MINUTES);
  }

  @Test
  void ordinaryPausesPlusAFailedRenewalSetTheTtlWhenTheyDominate() {
    LeaseAdvice advice =
        LeaseAdvice.basedOn(pauses(1800, 2400)).renewRoundTrip(Duration.ofMillis(200)).advise();

    assertThat(advice.ttl()).isEqualTo(Duration.ofSeconds(6));
    assertThat(advice.renewInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(advice.reasoning())
        .startsWith(
            "Observed 10 min (12000 wake-ups every 50 ms): pause p50 0.12 ms, p99 1.00 ms,"
                + " p999 1.8 s, max 2.4 s; 7 pauses of 100 ms or more.",
            "Ordinary pauses plus one failed renewal must fit in the lease:"
                + " ttl >= 3 × (p999 1.8 s + round trip 200 ms) = 6.0 s.",
            "The longest pause must fit between two renewals (renew every ttl/3):"
                + " ttl >= 1.5 × (max 2.4 s + round trip 200 ms) = 3.9 s.",
            "Advice: ttl 6.0 s, renew every 2.0 s.");
    assertThat(advice.toString()).isEqualTo("ttl 6.0 s, renew every 2.0 s");
  }

  @Test
  void theLongestPauseSetsTheTtlWhenItIsFarAboveTheOrdinaryOnes() {
    LeaseAdvice advice = LeaseAdvice.from(pauses(100, 5000));

    assertThat(advice.ttl()).isEqualTo(Duration.ofMillis(7500));
    assertThat(advice.renewInterval()).isEqualTo(Duration.ofMillis(2500));
    assertThat(advice.explain())
        .contains("ttl >= 1.5 × (max 5.0 s + round trip 0 ms) = 7.5 s.")
        .contains("The renewal round trip was not given");
  }

  @Test
  void tinyPausesGetTheMinimumTtl() {
    LeaseAdvice advice = LeaseAdvice.from(pauses(2, 3));

    assertThat(advice.ttl()).isEqualTo(Duration.ofSeconds(1));
    assertThat(advice.renewInterval()).isEqualTo(Duration.ofMillis(333));
    assertThat(advice.explain())
        .contains(
            "Advice: ttl 1.0 s, renew every 333 ms (the minimum ttl 1.0 s; pauses need less).");

    assertThat(LeaseAdvice.basedOn(pauses(2, 3)).minimumTtl(Duration.ofSeconds(15)).advise().ttl())
        .isEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void theTtlIsRoundedUpTo100MillisecondsAndAboveTenSecondsToWholeSeconds() {
    assertThat(LeaseAdvice.from(pauses(1234, 1300)).ttl()).isEqualTo(Duration.ofMillis(3800));
    assertThat(LeaseAdvice.from(pauses(3500, 3600)).ttl()).isEqualTo(Duration.ofSeconds(11));
    assertThat(LeaseAdvice.roundUp(Duration.ofMillis(3700))).isEqualTo(Duration.ofMillis(3700));
  }

  @Test
  void aCurrentTtlShorterThanTheLongestPauseIsCalledOut() {
    // R8: a 5 s lease and a 6 s pause stop a healthy worker.
    LeaseAdvice advice =
        LeaseAdvice.basedOn(pauses(500, 6000)).currentTtl(Duration.ofSeconds(5)).advise();

    assertThat(advice.ttl()).isEqualTo(Duration.ofSeconds(9));
    assertThat(advice.explain())
        .contains(
            "Current ttl 5.0 s is shorter than advised: a pause like the longest seen (6.0 s) can"
                + " outlast its renewal slack and stop a healthy worker.");
  }

  @Test
  void aCurrentTtlFarAboveTheAdviceIsSaidToSlowFailover() {
    LeaseAdvice advice =
        LeaseAdvice.basedOn(pauses(1800, 2400))
            .renewRoundTrip(Duration.ofMillis(200))
            .currentTtl(Duration.ofSeconds(60))
            .advise();

    assertThat(advice.explain())
        .contains(
            "Current ttl 1 min is more than twice the advice: a crashed holder's resource waits up"
                + " to 1 min for a takeover; 6.0 s would fail over sooner.");
    assertThat(
            LeaseAdvice.basedOn(pauses(1800, 2400))
                .currentTtl(Duration.ofSeconds(8))
                .advise()
                .explain())
        .contains("Current ttl 8.0 s is within the advice");
  }

  @Test
  void lostLeasesThatNoPauseExplainsPointAtRenewalsNotTheTtl() {
    LeaseAdvice advice =
        LeaseAdvice.basedOn(pauses(20, 40))
            .currentTtl(Duration.ofSeconds(30))
            .fencingCounts(new FencingCounts(4, 3, 2, TEN_MINUTES))
            .advise();

    assertThat(advice.explain())
        .contains(
            "3 lost leases in 10 min though no pause came near the current ttl: look at renewals")
        .contains("4 takeovers in 10 min: each follows a holder that crashed or paused longer")
        .contains("2 stale rejections in 10 min: destinations refused writes");
  }

  @Test
  void lostLeasesWithPausesBeyondTheRenewalSlackAskForALongerLease() {
    LeaseAdvice advice =
        LeaseAdvice.basedOn(pauses(500, 6000))
            .currentTtl(Duration.ofSeconds(5))
            .fencingCounts(new FencingCounts(0, 2, 0, TEN_MINUTES))
            .advise();

    assertThat(advice.explain())
        .contains(
            "2 lost leases in 10 min: pauses up to 6.0 s outlast the renewal slack of the current"
                + " ttl; lengthen it.")
        .doesNotContain("takeovers");
  }

  @Test
  void aShortObservationIsFlaggedAndTheAdviceNeverClaimsAUniversalBound() {
    LeaseAdvice shortWatch =
        LeaseAdvice.from(
            pauses(Duration.ofMillis(20), Duration.ofMillis(30), Duration.ofSeconds(45)));
    LeaseAdvice longWatch = LeaseAdvice.from(pauses(20, 30));

    assertThat(shortWatch.explain()).contains("Only 45.0 s and 12000 wake-ups observed");
    assertThat(longWatch.explain()).doesNotContain("Only");
    assertThat(List.of(shortWatch, longWatch))
        .allSatisfy(
            advice ->
                assertThat(advice.reasoning().get(advice.reasoning().size() - 1))
                    .startsWith("Lease + retry is not a universal bound"));
  }

  @Test
  void adviceRefusesARenewIntervalThatIsNotBelowTheTtl() {
    assertThatThrownBy(
            () -> new LeaseAdvice(Duration.ofSeconds(3), Duration.ofSeconds(3), List.of("why")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("renew interval PT3S must be positive with the renew interval below");
    assertThatThrownBy(() -> LeaseAdvice.basedOn(pauses(1, 1)).currentTtl(Duration.ZERO))
        .hasMessage("Cannot advise on a lease: current ttl PT0S is not positive");
  }
}
