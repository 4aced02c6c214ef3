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
package dev.fenceline.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.LeaseLoss;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.CapturedWarnings;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import dev.fenceline.tck.memory.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * {@link Fenced} methods of a Spring application: run under the lease, skip when another holder has
 * it, interrupt on loss, release after, and the stale run's write rejected at the destination. The
 * issuer is the in-memory reference issuer on a clock the test moves, so a lease is lost when the
 * test says, not when time passes.
 */
class FencedMethodTest {

  private static final ResourceId REPORT = ResourceId.of("nightly-report");

  @TempDir Path directory;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T02:00:00Z"));
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();
  private final InMemoryPointerStore reports =
      new InMemoryPointerStore(
          new InMemoryPointerStore.Storage(), "reports", StepListener.NONE, clock);

  /** How each fenced call ended, in order; the listener adds after the call released its lease. */
  private final java.util.concurrent.BlockingQueue<String> outcomes =
      new java.util.concurrent.LinkedBlockingQueue<>();

  private CapturedWarnings log;
  private List<LogRecord> logged;
  private final ExecutorService worker = Executors.newSingleThreadExecutor();
  private final Observed observed = new Observed();
  private final ScheduledRuns scheduled = new ScheduledRuns();

  /** Another client of the same issuer: another instance of the application. */
  private Fenceline otherInstance;

  @BeforeEach
  void captureLog() {
    log = CapturedWarnings.of(FencedMethodInterceptor.class, Level.INFO);
    logged = log.records();
    otherInstance =
        Fenceline.builder()
            .issuer(new InMemoryLeaseIssuer(issuerStorage, clock))
            .holder("worker-b")
            .leaseTtl(Duration.ofSeconds(30))
            .renewEvery(Duration.ZERO)
            .build();
  }

  @AfterEach
  void stop() {
    log.close();
    otherInstance.close();
    worker.shutdownNow();
  }

  private ApplicationContextRunner app() {
    return TestApps.onSqlite(directory)
        .withPropertyValues(
            "fenceline.lease.holder=worker-a",
            "fenceline.lease.ttl=30s",
            // Renewal by the test (renewNow), so the lease is lost exactly when the test says.
            "fenceline.lease.renew-every=0")
        .withBean(LeaseIssuer.class, () -> new InMemoryLeaseIssuer(issuerStorage, clock))
        .withBean(
            "outcomeRecorder",
            FencedRunListener.class,
            () -> (resource, method, outcome) -> outcomes.add(method.getName() + " " + outcome))
        .withBean(NightlyJob.class, () -> new NightlyJob(reports, observed));
  }

  @Test
  void theMethodRunsUnderTheLeaseAndReleasesIt() {
    app()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              NightlyJob job = context.getBean(NightlyJob.class);
              job.run();

              assertThat(observed.runs).hasValue(1);
              assertThat(observed.seen.token().resource()).isEqualTo(REPORT);
              assertThat(observed.seen.token().holder()).isEqualTo("worker-a");
              assertThat(observed.seenState).isEqualTo(HeldLease.State.HELD);
              assertThat(observed.seen.state()).isEqualTo(HeldLease.State.RELEASED);
              assertThat(context.getBean(LeaseIssuer.class).status(REPORT).held()).isFalse();
              assertThat(FencedContext.find()).isEmpty();
              assertThat(outcomes).containsExactly("run COMPLETED");
              assertThat(context.getBean(FencedRuns.class).running()).isEmpty();
            });
  }

  @Test
  void theTokenAccessorWorksOnlyInsideAFencedMethod() {
    assertThatThrownBy(FencedContext::currentToken)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot get the current lease: no @Fenced method runs on this thread (call it from"
                + " inside a method annotated @Fenced, on the thread that runs it, or pass the"
                + " lease to the threads it starts)");
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              job.run();
              assertThat(observed.seenToken).isEqualTo(observed.seen.token());
              assertThatThrownBy(FencedContext::currentLease)
                  .isInstanceOf(IllegalStateException.class);
            });
  }

  @Test
  void whenAnotherInstanceHoldsTheLeaseTheRunIsSkippedWithOneLogLine() {
    HeldLease held = otherInstance.tryAcquire(REPORT).orElseThrow();
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              job.run();
              Optional<String> computed = job.compute();

              assertThat(observed.runs).hasValue(0);
              assertThat(computed).isEmpty();
              assertThat(outcomes).containsExactly("run SKIPPED", "compute SKIPPED");
              assertThat(logged)
                  .extracting(LogRecord::getMessage)
                  .containsExactly(
                      "Skipped NightlyJob.run(): another holder has the lease on nightly-report"
                          + " (worker-b, epoch 1, until 2026-10-27T02:00:30Z by the issuer's"
                          + " clock)",
                      "Skipped NightlyJob.compute(): another holder has the lease on"
                          + " nightly-report (worker-b, epoch 1, until 2026-10-27T02:00:30Z by"
                          + " the issuer's clock)");
              assertThat(logged).extracting(LogRecord::getLevel).containsOnly(Level.INFO);
              // The holder's lease is untouched.
              assertThat(held.renewNow()).isTrue();
            });
    held.close();
  }

  @Test
  void aMethodThatReturnsOptionalGetsItsValueWhenItRuns() {
    app()
        .run(
            context -> {
              assertThat(context.getBean(NightlyJob.class).compute()).contains("report");
              assertThat(outcomes).containsExactly("compute COMPLETED");
            });
  }

  @Test
  void anExceptionReleasesTheLease() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              assertThatThrownBy(job::fail)
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessage("the report failed");

              assertThat(observed.seen.state()).isEqualTo(HeldLease.State.RELEASED);
              assertThat(context.getBean(LeaseIssuer.class).status(REPORT).held()).isFalse();
              assertThat(outcomes).containsExactly("fail FAILED");
              // Released, not expired: the other instance gets it at once.
              assertThat(otherInstance.tryAcquire(REPORT)).isPresent();
            });
  }

  @Test
  void losingTheLeaseInterruptsTheMethodsThreadAndTheThreadGoesBackClean() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              Future<Boolean> call =
                  worker.submit(
                      () -> {
                        job.waitForTheTest();
                        return Thread.currentThread().isInterrupted();
                      });
              assertThat(observed.started.await(10, TimeUnit.SECONDS)).isTrue();
              assertThat(context.getBean(FencedRuns.class).running())
                  .extracting(run -> run.lease().token().resource())
                  .containsExactly(REPORT);

              // The lease expires at the issuer; another instance takes over; the next renewal
              // hears of it.
              clock.advance(Duration.ofSeconds(31));
              HeldLease takenOver = otherInstance.tryAcquire(REPORT).orElseThrow();
              assertThat(observed.lease.renewNow()).isFalse();

              assertThat(call.get(10, TimeUnit.SECONDS))
                  .as("the interrupt flag Fenceline set is cleared when the method ends")
                  .isFalse();
              assertThat(observed.interrupted).isInstanceOf(InterruptedException.class);
              assertThat(observed.lease.loss().map(LeaseLoss::reason))
                  .contains(LeaseLoss.Reason.SUPERSEDED);
              assertThat(observed.lease.loss().flatMap(LeaseLoss::newerEpoch))
                  .contains(Epoch.of(2));
              assertThat(outcomes).containsExactly("waitForTheTest LOST");
              assertThat(logged)
                  .filteredOn(record -> record.getLevel() == Level.WARNING)
                  .extracting(LogRecord::getMessage)
                  .singleElement()
                  .asString()
                  .startsWith("Lost the lease on nightly-report at epoch 1: SUPERSEDED by epoch 2")
                  .contains("while NightlyJob.waitForTheTest() runs: interrupting its thread");
              assertThat(context.getBean(FencedRuns.class).running()).isEmpty();
              // The lost lease was not released over the new holder's.
              assertThat(takenOver.renewNow()).isTrue();
              takenOver.close();
            });
  }

  @Test
  void aStaleRunsPublishIsRejectedAtTheDestination() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              Future<Optional<WriteOutcome>> stale = stalledPastItsLease(job::computeThenPublish);
              // Another instance takes over and publishes.
              try (HeldLease takenOver = otherInstance.tryAcquire(REPORT).orElseThrow()) {
                WriteOutcome fresh =
                    otherInstance.publish(
                        takenOver, reports, OperationId.of("report-2026-10-27"), Pointer.to("b"));
                assertThat(fresh).isInstanceOf(Applied.class);

                observed.proceed.countDown(); // the stale run resumes and publishes
                WriteOutcome outcome = stale.get(10, TimeUnit.SECONDS).orElseThrow();

                assertThat(outcome).isInstanceOf(RejectedStale.class);
                assertThat(((RejectedStale) outcome).current()).isEqualTo(Epoch.of(2));
                assertThat(reports.current(REPORT).orElseThrow().pointer().target()).isEqualTo("b");
                assertThat(context.getBean(Fenceline.class).metrics().staleRejections())
                    .isEqualTo(1);
              }
            });
  }

  @Test
  void untilTheNewerOwnerRegistersOrPublishesAStaleRunsPublishIsAppliedAndStands() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              Future<Optional<WriteOutcome>> stale = stalledPastItsLease(job::computeThenPublish);
              // Another instance takes over but has written nothing to reports yet.
              try (HeldLease takenOver = otherInstance.tryAcquire(REPORT).orElseThrow()) {
                observed.proceed.countDown();
                WriteOutcome outcome = stale.get(10, TimeUnit.SECONDS).orElseThrow();

                // The destination knew no newer epoch: the stale write is applied ...
                assertThat(outcome).isInstanceOf(Applied.class);
                assertThat(reports.current(REPORT).orElseThrow().pointer().target()).isEqualTo("a");
                assertThat(reports.current(REPORT).orElseThrow().epoch()).isEqualTo(Epoch.of(1));

                // ... and, under the same operation ID, it stands: the newer owner's publish of
                // that operation with its own result conflicts with the one applied.
                assertThatThrownBy(
                        () ->
                            otherInstance.publish(
                                takenOver,
                                reports,
                                OperationId.of("report-2026-10-27"),
                                Pointer.to("b")))
                    .isInstanceOf(dev.fenceline.spi.OperationConflictException.class);
                assertThat(reports.current(REPORT).orElseThrow().pointer().target()).isEqualTo("a");
              }
            });
  }

  @Test
  void registeringFirstCutsTheStaleRunOffAtTheTakeover() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              Future<Optional<WriteOutcome>> stale = stalledPastItsLease(job::computeThenPublish);
              try (HeldLease takenOver = otherInstance.tryAcquire(REPORT).orElseThrow()) {
                // The newer owner's fenced method starts with register, as docs/spring-boot.md
                // shows.
                assertThat(otherInstance.register(takenOver, reports))
                    .isInstanceOf(dev.fenceline.spi.Registered.class);

                observed.proceed.countDown();
                WriteOutcome outcome = stale.get(10, TimeUnit.SECONDS).orElseThrow();

                assertThat(outcome).isInstanceOf(RejectedStale.class);
                assertThat(((RejectedStale) outcome).current()).isEqualTo(Epoch.of(2));
                assertThat(reports.current(REPORT)).isEmpty();
              }
            });
  }

  @Test
  void closingTheContextEndsARunningCallAndReleasesItsLeaseFirst() throws Exception {
    Future<Boolean>[] call = new Future[1];
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              call[0] =
                  worker.submit(
                      () -> {
                        job.waitForTheTest();
                        return Thread.currentThread().isInterrupted();
                      });
              assertThat(observed.started.await(10, TimeUnit.SECONDS)).isTrue();
              assertThat(new InMemoryLeaseIssuer(issuerStorage, clock).status(REPORT).held())
                  .isTrue();
            });
    // The context is closed: the call was interrupted, and its lease released before Fenceline
    // closed.
    assertThat(observed.interrupted).isInstanceOf(InterruptedException.class);
    assertThat(call[0].get(10, TimeUnit.SECONDS))
        .as("the shutdown interrupt is not Fenceline's loss interrupt: it stays")
        .isTrue();
    assertThat(new InMemoryLeaseIssuer(issuerStorage, clock).status(REPORT).held()).isFalse();
    assertThat(outcomes).containsExactly("waitForTheTest COMPLETED");
  }

  @Test
  void aPublishWithALeaseKnownLostIsRefusedBeforeItIsSent() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              Future<Optional<WriteOutcome>> stale =
                  stalledPastItsLease(job::computeIgnoringInterruptsThenPublish);
              otherInstance.tryAcquire(REPORT).orElseThrow();
              assertThat(observed.lease.renewNow()).isFalse(); // this instance learns of the loss

              observed.proceed.countDown();
              assertThatThrownBy(() -> stale.get(10, TimeUnit.SECONDS))
                  .hasCauseInstanceOf(LeaseLostException.class);
              assertThat(reports.current(REPORT)).isEmpty();
            });
  }

  /**
   * Starts {@code run} on the worker thread, waits until it holds the lease and stopped at the
   * test's latch, and moves the issuer's and the JVM's clock past the lease: the run stalls past
   * its lease and no renewal hears of it.
   */
  private Future<Optional<WriteOutcome>> stalledPastItsLease(Callable<Optional<WriteOutcome>> run)
      throws InterruptedException {
    Future<Optional<WriteOutcome>> stale = worker.submit(run);
    assertThat(observed.started.await(10, TimeUnit.SECONDS)).isTrue();
    clock.advance(Duration.ofSeconds(31));
    return stale;
  }

  @Test
  void aNestedCallOnTheSameResourceRunsUnderTheOuterLease() {
    app()
        .run(
            context -> {
              NightlyJob job = context.getBean(NightlyJob.class);
              job.outer();
              assertThat(observed.nestedToken).isEqualTo(observed.seen.token());
              assertThat(outcomes).containsExactly("outer COMPLETED");
            });
  }

  @Test
  void aScheduledMethodRunsThroughTheFence() {
    app()
        .withBean(ScheduledRuns.class, () -> scheduled)
        .withUserConfiguration(Scheduling.class)
        .run(
            context -> {
              assertThat(scheduled.ran.await(10, TimeUnit.SECONDS)).isTrue();
              assertThat(scheduled.token.resource()).isEqualTo(ResourceId.of("scheduled-report"));
              // The outcome comes after the method returned and the lease was released.
              assertThat(outcomes.poll(10, TimeUnit.SECONDS)).isEqualTo("tick COMPLETED");
            });
  }

  @Test
  void aScheduledMethodIsFencedAlsoWhenSchedulingIsSetUpFirst() {
    // Without the auto-configuration, scheduling's post-processor registered before Fenceline's:
    // it keeps the bean it sees, so Fenceline's proxy must be made before it runs.
    new ApplicationContextRunner()
        .withBean(ScheduledRuns.class, () -> scheduled)
        .withBean(Fenceline.class, () -> otherInstance)
        .withUserConfiguration(Scheduling.class, FencedInfrastructure.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(scheduled.ran.await(10, TimeUnit.SECONDS)).isTrue();
              assertThat(scheduled.token.resource()).isEqualTo(ResourceId.of("scheduled-report"));
            });
  }

  @Test
  void methodsThatCannotBeFencedStopTheApplicationWithTheReason() {
    app()
        .withBean(ReturnsAValue.class)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessage(
                        "Cannot fence ReturnsAValue.report() with @Fenced: it returns"
                            + " java.lang.String, and a call skipped because another instance"
                            + " holds the lease has no value to return (return void, or an"
                            + " Optional, which is empty when the call was skipped)"));
    app()
        .withBean(PrivateMethod.class)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessage(
                        "Cannot fence PrivateMethod.report() with @Fenced: it is private, so"
                            + " Spring's proxy cannot intercept its calls and it would run"
                            + " unfenced (make it a public method that is not private)"));
    app()
        .withBean(BadResource.class)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageStartingWith(
                        "Cannot fence BadResource.report() with @Fenced: its resource is not"
                            + " valid: "));
  }

  /** What the job saw, read by the test (a proxy's own fields are not the job's). */
  static final class Observed {
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch proceed = new CountDownLatch(1);
    volatile HeldLease seen;
    volatile HeldLease.State seenState;
    volatile dev.fenceline.spi.FencingToken seenToken;
    volatile dev.fenceline.spi.FencingToken nestedToken;
    volatile HeldLease lease;
    volatile Throwable interrupted;
  }

  /** The application's job. */
  public static class NightlyJob {
    final InMemoryPointerStore reports;
    final Observed observed;
    Fenceline fenceline;

    public NightlyJob(InMemoryPointerStore reports, Observed observed) {
      this.reports = reports;
      this.observed = observed;
    }

    @org.springframework.beans.factory.annotation.Autowired
    public void setFenceline(Fenceline fenceline) {
      this.fenceline = fenceline;
    }

    @Fenced(resource = "nightly-report")
    public void run() {
      observed.runs.incrementAndGet();
      observed.seen = FencedContext.currentLease();
      observed.seenState = observed.seen.state();
      observed.seenToken = FencedContext.currentToken();
    }

    @Fenced(resource = "nightly-report")
    public Optional<String> compute() {
      observed.runs.incrementAndGet();
      return Optional.of("report");
    }

    @Fenced(resource = "nightly-report")
    public void fail() {
      observed.seen = FencedContext.currentLease();
      throw new IllegalStateException("the report failed");
    }

    @Fenced(resource = "nightly-report")
    public void waitForTheTest() {
      observed.lease = FencedContext.currentLease();
      observed.started.countDown();
      try {
        observed.proceed.await();
      } catch (InterruptedException e) {
        observed.interrupted = e;
        Thread.currentThread().interrupt(); // as a well-behaved method does
      }
    }

    @Fenced(resource = "nightly-report")
    public Optional<WriteOutcome> computeThenPublish() throws InterruptedException {
      observed.lease = FencedContext.currentLease();
      observed.started.countDown();
      observed.proceed.await();
      return Optional.of(publishReport("a"));
    }

    /** A computation that does not stop when interrupted: its publish is refused instead. */
    @Fenced(resource = "nightly-report")
    public Optional<WriteOutcome> computeIgnoringInterruptsThenPublish() {
      observed.lease = FencedContext.currentLease();
      observed.started.countDown();
      boolean interrupted = false;
      while (true) {
        try {
          observed.proceed.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return Optional.of(publishReport("a"));
    }

    private WriteOutcome publishReport(String target) {
      return fenceline.publish(
          FencedContext.currentLease(),
          reports,
          OperationId.of("report-2026-10-27"),
          Pointer.to(target));
    }

    @Fenced(resource = "nightly-report")
    public void outer() {
      observed.seen = FencedContext.currentLease();
      self.nested();
    }

    @Fenced(resource = "nightly-report")
    public void nested() {
      observed.nestedToken = FencedContext.currentToken();
    }

    NightlyJob self;

    @org.springframework.beans.factory.annotation.Autowired
    public void setSelf(@org.springframework.context.annotation.Lazy NightlyJob self) {
      this.self = self;
    }
  }

  /** Fenceline's post-processor as an application would declare it without the starter. */
  @Configuration(proxyBeanMethods = false)
  static class FencedInfrastructure {
    @Bean
    static FencedAdvisingPostProcessor fencedAdvisingPostProcessor(
        org.springframework.beans.factory.ObjectProvider<Fenceline> fenceline) {
      return new FencedAdvisingPostProcessor(
          fenceline::getObject, Optional::empty, List::of, FencedRuns::new);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableScheduling
  static class Scheduling {
    @Bean
    ScheduledJob scheduledJob(ScheduledRuns runs) {
      return new ScheduledJob(runs);
    }
  }

  static final class ScheduledRuns {
    final CountDownLatch ran = new CountDownLatch(1);
    volatile dev.fenceline.spi.FencingToken token;
  }

  public static class ScheduledJob {
    final ScheduledRuns runs;

    public ScheduledJob(ScheduledRuns runs) {
      this.runs = runs;
    }

    @Fenced(resource = "scheduled-report")
    @Scheduled(fixedDelay = 3_600_000)
    public void tick() {
      runs.token = FencedContext.currentToken();
      runs.ran.countDown();
    }
  }

  public static class ReturnsAValue {
    @Fenced(resource = "nightly-report")
    public String report() {
      return "report";
    }
  }

  public static class PrivateMethod {
    @Fenced(resource = "nightly-report")
    private void report() {}

    public void call() {
      report();
    }
  }

  public static class BadResource {
    @Fenced(resource = "../etc/passwd")
    public void report() {}
  }
}
