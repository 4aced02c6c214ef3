package dev.fenceline.core.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.core.Fenceline;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The README's lease-advice example, kept compiling and running (without the long workload). */
class ReadmeMonitorExampleTest {

  @Test
  void theReadmeExampleGivesAdviceWithItsReasoning() {
    InMemoryLeaseIssuer issuer =
        new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), new MutableClock(Instant.EPOCH));
    try (Fenceline fenceline = Fenceline.builder().issuer(issuer).holder("worker-1").build();
        PauseMonitor monitor = PauseMonitor.builder().build()) {
      monitor.start();
      LeaseAdvice advice =
          LeaseAdvice.basedOn(monitor.snapshot())
              .fencingCounts(fenceline.metrics().counts())
              .currentTtl(Duration.ofSeconds(30))
              .advise();

      assertThat(advice.ttl()).isPositive();
      assertThat(advice.renewInterval()).isLessThan(advice.ttl());
      assertThat(advice.explain()).contains("not a universal bound");
    }
  }
}
