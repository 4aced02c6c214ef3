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
package dev.fenceline.junit;

import static dev.fenceline.junit.FencelineAssertions.assertThat;
import static dev.fenceline.junit.FencelineAssertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Sample test classes run under the extension as a user's build runs them, to check what the run
 * reports: one lab per test, clean-up after each test (no thread left running), clean-up problems
 * and misplaced annotations reported as failures. The samples are nested classes, which surefire
 * does not run on its own; selected directly (say with {@code -Dtest=...**}) they are skipped.
 */
class FencelineExtensionRunTest {

  static final ResourceId REPORT = ResourceId.of("nightly-report");
  static final List<FencelineLab> LABS = new CopyOnWriteArrayList<>();
  static final List<HeldLease> LEASES = new CopyOnWriteArrayList<>();
  static final List<Fenceline> WORKERS = new CopyOnWriteArrayList<>();
  static final List<WorkerThread<WriteOutcome>> THREADS = new CopyOnWriteArrayList<>();
  static final List<WorkerThread<Object>> STUBBORN = new CopyOnWriteArrayList<>();
  static volatile CountDownLatch release;

  @BeforeEach
  void forgetEarlierSamples() {
    LABS.clear();
    LEASES.clear();
    WORKERS.clear();
    THREADS.clear();
    STUBBORN.clear();
  }

  @Test
  void eachTestGetsItsOwnLabEvenThroughTheConstructor() {
    Events tests = run(TwoTestsSample.class);

    tests.assertStatistics(stats -> stats.started(2).succeeded(2));
    // Constructor, first test, constructor, second test: one lab per test instance and test.
    assertThat(LABS).hasSize(4);
    assertThat(LABS.get(1)).isSameAs(LABS.get(0));
    assertThat(LABS.get(3)).isSameAs(LABS.get(2)).isNotSameAs(LABS.get(1));
    // Each test saw epoch 1 on its own issuer: nothing of the other test's lab leaked in.
    assertThat(LEASES).hasSize(2).allSatisfy(lease -> assertThat(lease).hasEpoch(1));
  }

  @Test
  void aLabInjectedBeforeAllOrIntoAPerClassInstanceIsTheClasssLab() {
    run(BeforeAllSample.class).assertStatistics(stats -> stats.started(2).succeeded(2));
    assertThat(new HashSet<>(LABS)).hasSize(1);

    LABS.clear();
    run(PerClassSample.class).assertStatistics(stats -> stats.started(2).succeeded(2));
    assertThat(new HashSet<>(LABS)).hasSize(1);
  }

  @Test
  void afterEachTestItsPausedWorkerIsResumedItsThreadsEndAndItsWorkersAreClosed() {
    Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());

    run(LeavesAWorkerPausedSample.class).assertStatistics(stats -> stats.succeeded(1));

    // Resumed, not killed: the paused publish went on and got its answer.
    assertThat(THREADS)
        .singleElement()
        .satisfies(thread -> assertThat(thread.isRunning()).isFalse());
    assertThat(THREADS.get(0).join()).isRejectedAsStale().byCurrentEpoch(2);
    assertThat(WORKERS)
        .hasSize(2)
        .allSatisfy(
            worker ->
                assertThatThrownBy(() -> worker.tryAcquire(REPORT))
                    .hasMessageContaining("this Fenceline is closed"));
    assertThat(threadsStartedSince(before)).isEmpty();
  }

  @Test
  void theLabIsClosedAlsoWhereJUnitDoesNotCloseAutoCloseableStoreValues() {
    // As JUnit before 5.13 does: only ExtensionContext.Store.CloseableResource values are closed.
    Events tests =
        run(
            LeavesAWorkerPausedSample.class,
            "junit.jupiter.extensions.store.close.autocloseable.enabled",
            "false");

    tests.assertStatistics(stats -> stats.succeeded(1));
    assertThat(THREADS)
        .singleElement()
        .satisfies(thread -> assertThat(thread.isRunning()).isFalse());
    assertThat(WORKERS)
        .hasSize(2)
        .allSatisfy(
            worker ->
                assertThatThrownBy(() -> worker.tryAcquire(REPORT))
                    .hasMessageContaining("this Fenceline is closed"));
  }

  @Test
  void aWorkerThatThrewUnseenFailsItsTest() {
    Events tests = run(UnjoinedFailureSample.class);

    tests
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("startsAWorkerThatThrowsAndNeverJoinsIt"),
                finishedWithFailure(
                    instanceOf(AssertionError.class),
                    message(
                        "Cannot clean up after the test: crashing threw"
                            + " java.lang.IllegalStateException: disk full and the test never"
                            + " joined it (call join() or joinFailure())"))));
  }

  @Test
  void aWorkerThatCannotBeStoppedFailsItsTestAndSaysWhereItIs() {
    release = new CountDownLatch(1);
    try {
      Events tests = run(UnstoppableWorkerSample.class);

      tests
          .assertThatEvents()
          .haveExactly(
              1,
              event(
                  test("leavesAWorkerThatIgnoresInterrupts"),
                  finishedWithFailure(
                      instanceOf(AssertionError.class),
                      message(
                          text ->
                              text.startsWith(
                                      "Cannot clean up after the test: stubborn did not stop"
                                          + " within PT0.2S after its pauses were resumed and it"
                                          + " was interrupted: it is WAITING, at:")
                                  && text.contains("UnstoppableWorkerSample")))));
    } finally {
      release.countDown();
    }
    assertThat(STUBBORN).singleElement().satisfies(thread -> assertThat(thread.join()).isNull());
  }

  @Test
  void aMisplacedOrInvalidNameIsReportedWithTheParameter() {
    Events tests = run(WrongParametersSample.class);

    tests
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                test("holderOnAString"),
                finishedWithFailure(
                    message(
                        "Cannot inject parameter 0 (String) of holderOnAString: @Holder names a"
                            + " Fenceline, not a String (declare the parameter as Fenceline)"))))
        .haveExactly(
            1,
            event(
                test("invalidDestinationName"),
                finishedWithFailure(
                    message(
                        text ->
                            text.startsWith(
                                "Cannot inject parameter 0 (InMemoryDestination) of"
                                    + " invalidDestinationName: Cannot use destination name"
                                    + " \"Reports!\"")))));
  }

  private static Events run(Class<?> sample) {
    return run(sample, SAMPLES, "true");
  }

  /** Runs {@code sample} with the configuration parameter {@code key} set to {@code value}. */
  private static Events run(Class<?> sample, String key, String value) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter(SAMPLES, "true")
        .configurationParameter(key, value)
        .selectors(selectClass(sample))
        .execute()
        .testEvents();
  }

  private static final String SAMPLES = "fenceline.junit.run-samples";

  /** Runs a sample only when this class starts it. */
  static final class OnlyFromThisTest implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(SAMPLES).isPresent()
          ? ConditionEvaluationResult.enabled("run by FencelineExtensionRunTest")
          : ConditionEvaluationResult.disabled("a sample that FencelineExtensionRunTest runs");
    }
  }

  /** Threads started since {@code before} that are still alive once they had time to end. */
  private static Set<Thread> threadsStartedSince(Set<Thread> before) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
      started.removeAll(before);
      started.removeIf(thread -> !thread.isAlive());
      if (started.isEmpty() || System.nanoTime() > deadline) {
        return started;
      }
      // Polls until the executors the clean-up shut down have let their threads end.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  @FencelineTest
  static class TwoTestsSample {
    TwoTestsSample(FencelineLab lab) {
      LABS.add(lab);
    }

    @Test
    void first(FencelineLab lab) {
      LABS.add(lab);
      LEASES.add(lab.acquire(lab.worker("worker-a"), REPORT));
    }

    @Test
    void second(FencelineLab lab) {
      LABS.add(lab);
      LEASES.add(lab.acquire(lab.worker("worker-a"), REPORT));
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  @FencelineTest
  static class BeforeAllSample {
    @BeforeAll
    static void setUp(FencelineLab lab) {
      LABS.add(lab);
    }

    @Test
    void first(FencelineLab lab) {
      LABS.add(lab);
    }

    @Test
    void second(FencelineLab lab) {
      LABS.add(lab);
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  @FencelineTest
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerClassSample {
    PerClassSample(FencelineLab lab) {
      LABS.add(lab);
    }

    @Test
    @Order(1)
    void first(FencelineLab lab) {
      LABS.add(lab);
    }

    @Test
    @Order(2)
    void second(FencelineLab lab) {
      LABS.add(lab);
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  @FencelineTest
  static class LeavesAWorkerPausedSample {
    @Test
    void pausesWorkerAAndNeverResumesIt(
        FencelineLab lab,
        @Holder("worker-a") Fenceline workerA,
        @Holder("worker-b") Fenceline workerB,
        InMemoryDestination<String> reports) {
      WORKERS.add(workerA);
      WORKERS.add(workerB);
      HeldLease leaseA = lab.acquire(workerA, REPORT);
      PausePoints.Pause stall = lab.pauseAt(FencingStep.BEFORE_LOCK, "worker-a");
      THREADS.add(
          lab.start(
              "worker-a", () -> workerA.publish(leaseA, reports, OperationId.of("op-1"), "A")));
      stall.awaitReached();
      lab.expire(REPORT);
      workerB.register(lab.acquire(workerB, REPORT), reports);
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  @FencelineTest
  static class UnjoinedFailureSample {
    @Test
    void startsAWorkerThatThrowsAndNeverJoinsIt(FencelineLab lab) {
      WorkerThread<Object> crashing =
          lab.start(
              "crashing",
              () -> {
                throw new IllegalStateException("disk full");
              });
      // Waits for the end without looking at the result, as a careless test would.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (crashing.isRunning() && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      }
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  static class UnstoppableWorkerSample {
    @RegisterExtension
    static final FencelineExtension FENCELINE = new FencelineExtension(Duration.ofMillis(200));

    @Test
    void leavesAWorkerThatIgnoresInterrupts(FencelineLab lab) {
      CountDownLatch latch = release;
      WorkerThread<Object> stubborn =
          lab.start(
              "stubborn",
              () -> {
                while (true) {
                  try {
                    latch.await();
                    return null;
                  } catch (InterruptedException e) {
                    // ignores it, as code that swallows interrupts does
                  }
                }
              });
      STUBBORN.add(stubborn);
    }
  }

  @ExtendWith(OnlyFromThisTest.class)
  @FencelineTest
  static class WrongParametersSample {
    @Test
    void holderOnAString(@Holder("worker-a") String holder) {}

    @Test
    void invalidDestinationName(@DestinationName("Reports!") InMemoryDestination<String> d) {}
  }
}
