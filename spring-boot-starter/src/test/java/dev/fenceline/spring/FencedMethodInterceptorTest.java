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
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.CapturedWarnings;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

/**
 * {@link FencedMethodInterceptor} on beans behind JDK proxies (as Spring makes them with {@code
 * spring.aop.proxy-target-class=false}), on the in-memory issuer and a monotonic clock the test
 * moves: which resource each call runs under, what outcome it reports, and which interrupts and
 * leases it leaves behind.
 */
class FencedMethodInterceptorTest {

  private static final ResourceId REPORT_A = ResourceId.of("report-a");
  private static final ResourceId REPORT_B = ResourceId.of("report-b");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-10-27T02:00:00Z"));
  private final AtomicLong nanos = new AtomicLong();
  private final InMemoryLeaseIssuer issuer =
      new InMemoryLeaseIssuer(new InMemoryLeaseIssuer.Storage(), clock);
  private final Fenceline fenceline = fenceline("worker-a");
  private final Fenceline otherInstance = fenceline("worker-b");
  private final FencedRuns runs = new FencedRuns();
  private final List<String> outcomes = new CopyOnWriteArrayList<>();
  private final List<ResourceId> ranUnder = new CopyOnWriteArrayList<>();
  private final ExecutorService worker = Executors.newSingleThreadExecutor();
  private CapturedWarnings log;
  private List<LogRecord> logged;

  @BeforeEach
  void captureLog() {
    log = CapturedWarnings.of(FencedMethodInterceptor.class, Level.INFO);
    logged = log.records();
  }

  @AfterEach
  void close() {
    log.close();
    worker.shutdownNow();
    fenceline.close();
    otherInstance.close();
  }

  private Fenceline fenceline(String holder) {
    return Fenceline.builder()
        .issuer(issuer)
        .holder(holder)
        .leaseTtl(Duration.ofSeconds(30))
        .renewEvery(Duration.ZERO)
        .clock(nanos::get)
        .build();
  }

  private FencedMethodInterceptor interceptor(Supplier<FencedRuns> runs) {
    return new FencedMethodInterceptor(
        () -> fenceline,
        () -> Optional.of(issuer),
        () -> List.of((resource, method, outcome) -> outcomes.add(resource + " " + outcome)),
        runs);
  }

  /** {@code target} behind a JDK proxy of its interface, advised by {@code interceptor}. */
  private static Job jdkProxy(Job target, FencedMethodInterceptor interceptor) {
    ProxyFactory factory = new ProxyFactory(target);
    factory.addAdvice(interceptor);
    Job proxy = (Job) factory.getProxy();
    assertThat(java.lang.reflect.Proxy.isProxyClass(proxy.getClass())).isTrue();
    return proxy;
  }

  @Test
  void twoBeansImplementingOneInterfaceMethodEachRunUnderTheirOwnResource() {
    FencedMethodInterceptor interceptor = interceptor(() -> runs);
    Job a = jdkProxy(new ReportA(ranUnder), interceptor);
    Job b = jdkProxy(new ReportB(ranUnder), interceptor);

    a.run(() -> {});
    b.run(() -> {});
    a.run(() -> {});

    assertThat(ranUnder).containsExactly(REPORT_A, REPORT_B, REPORT_A);
    assertThat(outcomes)
        .containsExactly("report-a COMPLETED", "report-b COMPLETED", "report-a COMPLETED");
  }

  @Test
  void aCallThatReturnsPastTheLocalDeadlineIsLostEvenBeforeTheWatchSaysSo() {
    Job job = jdkProxy(new ReportA(ranUnder), interceptor(() -> runs));

    // A freeze inside the method: the monotonic clock passes the lease's local deadline, the
    // method returns at once, before any renewal or deadline watch noticed.
    job.run(() -> nanos.addAndGet(Duration.ofSeconds(31).toNanos()));

    assertThat(outcomes).containsExactly("report-a LOST");
    assertThat(issuer.status(REPORT_A).held()).isFalse();
  }

  @Test
  void whenTheRunsCannotBeFoundTheLeaseIsNotLeftHeld() {
    Job job =
        jdkProxy(
            new ReportA(ranUnder),
            interceptor(
                () -> {
                  throw new IllegalStateException("no FencedRuns bean");
                }));

    assertThatThrownBy(() -> job.run(() -> {})).hasMessage("no FencedRuns bean");

    assertThat(ranUnder).isEmpty();
    assertThat(issuer.status(REPORT_A).held()).isFalse();
    assertThat(otherInstance.tryAcquire(REPORT_A)).isPresent();
  }

  @Test
  void anInterruptFencelineDidNotSendSurvivesTheCall() {
    Job job = jdkProxy(new ReportA(ranUnder), interceptor(() -> runs));

    boolean interruptedAfter;
    try {
      job.run(
          () -> {
            // The scheduler cancels the run (cancel(true)) ...
            Thread.currentThread().interrupt();
            // ... and then the lease is lost: another instance took over.
            clock.advance(Duration.ofSeconds(31));
            otherInstance.tryAcquire(REPORT_A).orElseThrow();
            assertThat(FencedContext.currentLease().renewNow()).isFalse();
          });
    } finally {
      interruptedAfter = Thread.interrupted(); // read and clear: the test thread goes on clean
    }

    assertThat(interruptedAfter).as("the scheduler's interrupt survives the call").isTrue();
    assertThat(outcomes).containsExactly("report-a LOST");
    assertThat(logged)
        .filteredOn(record -> record.getLevel() == Level.WARNING)
        .extracting(LogRecord::getMessage)
        .singleElement()
        .asString()
        .contains("while ReportA.run() runs: its thread " + Thread.currentThread().getName())
        .contains(" is already interrupted;");
  }

  @Test
  void aSkipBecauseThisInstanceRunsItOnAnotherThreadSaysSo() throws Exception {
    Job job = jdkProxy(new ReportA(ranUnder), interceptor(() -> runs));
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    Future<?> first =
        worker.submit(
            () ->
                job.run(
                    () -> {
                      started.countDown();
                      try {
                        proceed.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    job.run(() -> {});
    proceed.countDown();
    first.get(10, TimeUnit.SECONDS);

    assertThat(outcomes).containsExactly("report-a SKIPPED", "report-a COMPLETED");
    assertThat(logged)
        .filteredOn(record -> record.getLevel() == Level.INFO)
        .extracting(LogRecord::getMessage)
        .containsExactly(
            "Skipped ReportA.run(): this instance already runs it on another thread: it has the"
                + " lease on report-a (worker-a, epoch 1, until 2026-10-27T02:00:30Z by the"
                + " issuer's clock)");

    // Held by another instance: named as another holder.
    log.clear();
    try (HeldLease other = otherInstance.tryAcquire(REPORT_A).orElseThrow()) {
      job.run(() -> {});
    }
    assertThat(logged)
        .extracting(LogRecord::getMessage)
        .singleElement()
        .asString()
        .startsWith("Skipped ReportA.run(): another holder has the lease on report-a (worker-b,");
  }

  /** An interface several beans implement, so a JDK proxy's method is the interface's. */
  public interface Job {
    void run(Runnable body);
  }

  /** Fenced on {@code report-a}. */
  public static final class ReportA implements Job {
    private final List<ResourceId> ranUnder;

    ReportA(List<ResourceId> ranUnder) {
      this.ranUnder = ranUnder;
    }

    @Override
    @Fenced(resource = "report-a")
    public void run(Runnable body) {
      ranUnder.add(FencedContext.currentToken().resource());
      body.run();
    }
  }

  /** Fenced on {@code report-b}. */
  public static final class ReportB implements Job {
    private final List<ResourceId> ranUnder;

    ReportB(List<ResourceId> ranUnder) {
      this.ranUnder = ranUnder;
    }

    @Override
    @Fenced(resource = "report-b")
    public void run(Runnable body) {
      ranUnder.add(FencedContext.currentToken().resource());
      body.run();
    }
  }
}
