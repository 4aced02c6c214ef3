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

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.RetryNotComparedException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What this process does when it is told to stop (Ctrl-C, {@code kill}: SIGINT, SIGTERM, SIGHUP)
 * while a command holds a lease: a JVM shutdown hook stops {@code run}'s CMD (TERM, then KILL after
 * {@code --grace}), makes the payload being uploaded fail (its stream is closed and every further
 * read throws, so the staged destination deletes the partial staged blob), waits for the store call
 * under way to end, releases the lease, and prints one line saying what happened to the publish:
 * nothing was published, it was published, or its outcome is unknown (the payload was sent and the
 * pointer swap may have happened). The JVM then exits with 128 + the signal's number (130 for
 * SIGINT, 143 for SIGTERM), as it does for any signal.
 *
 * <p>After stopping CMD (TERM, then KILL after {@code --grace}), the hook waits at most {@link
 * #CLEANUP_LIMIT}, never longer than the lease's ttl, for the store call under way and the lease's
 * release together; the release keeps the last second of that (after that the lease expires by
 * itself; a leftover staged blob is the sweep's). The command's own thread stops at the next step
 * boundary ({@link #step}) once the hook has started, so the hook's line is the only output about
 * the publish.
 *
 * <p>The signal's name is only observed (through {@code sun.misc.Signal}, where it exists, handing
 * the signal on to the JVM's own handler at once); everything else is the shutdown hook's.
 */
final class Interruption {

  /** The longest the hook waits for the store call under way and the lease's release. */
  static final Duration CLEANUP_LIMIT = Duration.ofSeconds(10);

  private static final Interruption PROCESS = new Interruption(System.err);

  /** Where the command stands; the hook's line depends on it. */
  enum Phase {
    /** Nothing is being published (the lease may be held, CMD may run). */
    IDLE,
    /** The payload is being read; its end was not: nothing can have been published. */
    UPLOADING,
    /** The whole payload was read (or a request sent): the publish may have landed. */
    SENT,
    /** The publish call returned or threw. */
    ENDED
  }

  private final PrintStream err;
  private final IntConsumer halt;
  private final Object lock = new Object();
  private volatile String signal;
  private boolean hookInstalled;

  // Guarded by lock.
  private boolean interrupted;
  private HeldLease lease;
  private LeaseIssuer issuer;
  private UnaryOperator<String> mask = UnaryOperator.identity();
  private String subject;
  private OperationId operation;
  private Phase phase = Phase.IDLE;
  private WriteOutcome outcome;
  private RuntimeException failure;
  private int callsInFlight;
  private ChildProcess child;
  private Duration grace = Duration.ZERO;
  private boolean childStarting;
  private Integer reportedStatus; // the status of the report the command began to print
  private boolean reportPrinted;
  private final List<Payload> payloads = new ArrayList<>();

  Interruption(PrintStream err) {
    this(err, status -> Runtime.getRuntime().halt(status));
  }

  /** With {@code halt} instead of {@link Runtime#halt} (for tests). */
  Interruption(PrintStream err, IntConsumer halt) {
    this.err = requireNonNull(err, "err is null");
    this.halt = requireNonNull(halt, "halt is null");
  }

  /** The one of this process, whose hook runs when the JVM is told to exit. */
  static Interruption process() {
    return PROCESS;
  }

  /**
   * Says what the command will publish, for the hook's line: {@code what} ("report.csv", "standard
   * input") to {@code destination} as {@code operation}. Call after {@link #holding}.
   */
  void willPublish(String what, String destination, OperationId operation) {
    installHook();
    synchronized (lock) {
      this.subject = what + " to " + destination;
      this.operation = operation;
    }
  }

  /**
   * Runs a store call of the command (acquire, register, publish) as a step: once the hook has
   * started, the command's thread does not start another step, and does not go on after the one
   * under way (it waits for the JVM to halt). Only calls that end by themselves are steps; the hook
   * waits for them.
   */
  <T> T step(Supplier<T> call) {
    synchronized (lock) {
      if (interrupted) {
        awaitHalt();
      }
      callsInFlight++;
    }
    try {
      return call.get();
    } finally {
      synchronized (lock) {
        callsInFlight--;
        lock.notifyAll();
        if (interrupted) {
          awaitHalt();
        }
      }
    }
  }

  /**
   * Tells the hook which lease to release, and through which issuer; {@code mask} hides the
   * configuration's secrets in its line. Call from the acquire {@link #step}.
   */
  void holding(HeldLease lease, LeaseIssuer issuer, UnaryOperator<String> mask) {
    installHook();
    synchronized (lock) {
      this.lease = requireNonNull(lease, "lease is null");
      this.issuer = requireNonNull(issuer, "issuer is null");
      this.mask = requireNonNull(mask, "mask is null");
      this.phase = Phase.IDLE;
      this.subject = null;
      this.operation = null;
      this.outcome = null;
      this.failure = null;
      this.child = null;
      this.payloads.clear();
    }
  }

  /**
   * Starts {@code run}'s CMD with {@code start}: the hook stops it (TERM, then KILL after {@code
   * grace}) before it releases the lease. Once the hook has started, CMD is not started; a hook
   * that starts while CMD is being started waits for the start to end (it ends by itself) and then
   * stops CMD, so the lease is never released while CMD may still run.
   */
  ChildProcess start(Supplier<ChildProcess> start, Duration grace) {
    installHook();
    synchronized (lock) {
      if (interrupted) {
        awaitHalt();
      }
      this.childStarting = true;
      this.grace = grace;
    }
    ChildProcess started = null;
    try {
      started = start.get();
      started.shutdownGrace(grace);
      return started;
    } finally {
      synchronized (lock) {
        this.child = started;
        this.childStarting = false;
        lock.notifyAll();
        if (interrupted) {
          awaitHalt(); // the hook stops CMD, releases the lease and reports
        }
      }
    }
  }

  /**
   * The gate the command passes before it prints its report (the JSON document, its lines, its
   * error line) and exits with {@code status}: if a signal was observed or the hook has started,
   * the command prints nothing and waits for the JVM to halt (the hook's line is the report, the
   * status 128 + the signal's number). Otherwise {@code print} runs, and a hook that starts from
   * now on waits for it (at most {@link #CLEANUP_LIMIT}) and halts the JVM with {@code status}, so
   * that the printed report and the process's status always agree.
   *
   * @return {@code status}
   */
  int report(int status, Runnable print) {
    synchronized (lock) {
      if (interrupted || signal != null) {
        awaitHalt();
      }
      reportedStatus = status;
      reportPrinted = false;
    }
    try {
      print.run();
    } finally {
      synchronized (lock) {
        reportPrinted = true;
        lock.notifyAll();
      }
    }
    return status;
  }

  /** Records {@code signalName} as the observer does (for tests). */
  void observed(String signalName) {
    signal = signalName;
  }

  /**
   * Publishes as a {@link #step}: {@code what} to {@code destination}. With {@code sentAtOnce} the
   * publish may land from its start (a request whose body this class does not see); otherwise it
   * counts as sent only once a {@linkplain #payload payload} was read to its end.
   */
  WriteOutcome publishing(
      String what,
      String destination,
      OperationId operation,
      boolean sentAtOnce,
      Supplier<WriteOutcome> publish) {
    return step(
        () -> {
          synchronized (lock) {
            subject = what + " to " + destination;
            this.operation = operation;
            phase = sentAtOnce ? Phase.SENT : Phase.UPLOADING;
          }
          try {
            WriteOutcome result = publish.get();
            synchronized (lock) {
              outcome = result;
              phase = Phase.ENDED;
            }
            return result;
          } catch (RuntimeException e) {
            synchronized (lock) {
              failure = e;
              phase = Phase.ENDED;
            }
            throw e;
          }
        });
  }

  /**
   * The payload as the publish reads it: once the hook has started, it is closed (a blocked read
   * returns) and every read throws, so the upload fails and nothing is published. A read that
   * reaches its end marks the publish as {@linkplain Phase#SENT sent}.
   */
  InputStream payload(InputStream in) {
    Payload payload = new Payload(in);
    synchronized (lock) {
      payloads.add(payload);
    }
    return payload;
  }

  /**
   * {@code exit} unless the hook has started; then a future that never completes, so that the
   * command's thread does not go on while the hook stops CMD and reports.
   */
  <T> CompletableFuture<T> unlessInterrupted(CompletableFuture<T> exit) {
    return exit.thenCompose(
        value -> {
          synchronized (lock) {
            return interrupted
                ? new CompletableFuture<T>()
                : CompletableFuture.completedFuture(value);
          }
        });
  }

  /** True once the hook has started (for tests). */
  boolean isInterrupted() {
    synchronized (lock) {
      return interrupted;
    }
  }

  private void installHook() {
    synchronized (lock) {
      if (hookInstalled) {
        return;
      }
      hookInstalled = true;
    }
    SignalObserver.observe(name -> signal = name);
    Runtime.getRuntime().addShutdownHook(new Thread(this::onExit, "fenceline-interrupted"));
  }

  /**
   * The shutdown hook: does nothing on a normal exit (no signal observed and no lease held, or
   * nothing of a command under way).
   */
  void onExit() {
    String signalName = signal;
    TakenOver taken = takeOver(signalName);
    if (taken == null) {
      return;
    }
    taken.poisoned().forEach(Payload::close); // outside the lock: a blocked read returns
    if (taken.command() != null) {
      taken.command().stop(grace);
    }
    // The store call under way and the release share the limit; the release keeps the last
    // second of it (half of it if it is shorter than 2 s).
    long deadline = System.nanoTime() + taken.limit().toNanos();
    long reserve = Math.min(TimeUnit.SECONDS.toNanos(1), taken.limit().toNanos() / 2);
    boolean callsEnded = awaitCalls(deadline - reserve);
    HeldLease held;
    synchronized (lock) {
      held = lease;
    }
    if (held == null) {
      err.println(
          "fenceline: interrupted ("
              + (signalName != null ? signalName : "told to exit")
              + ") while acquiring the lease: nothing was published (if the acquire reached the"
              + " issuer, the lease expires by itself)");
      err.flush();
      return;
    }
    String released = release(held, deadline);
    String line;
    UnaryOperator<String> masking;
    synchronized (lock) {
      masking = mask;
      line =
          "fenceline: interrupted ("
              + (signalName != null ? signalName : "told to exit")
              + ") "
              + what(taken.seen(), taken.command())
              + ": "
              + outcome(taken.seen(), callsEnded)
              + "; "
              + released;
    }
    err.println(ConfiguredCommand.oneLine(masking.apply(line)));
    err.flush();
  }

  /**
   * What the hook took over from the command.
   *
   * @param seen the phase of the publish when the payloads were poisoned
   * @param poisoned the payloads no read returns from any more, still to be closed
   * @param command CMD, still to be stopped, or null
   * @param limit how long the store call under way and the release may take together
   */
  private record TakenOver(
      Phase seen, List<Payload> poisoned, ChildProcess command, Duration limit) {}

  /**
   * Decides under the lock whether the hook has anything to do and, if so, takes over: from now on
   * the command's thread does not go on, CMD's start has ended, and no read of the payload returns.
   *
   * @return what the hook took over, or null on a normal exit (after a signal that came once the
   *     command passed the gate, the JVM halts here with the status its report names)
   */
  private TakenOver takeOver(String signalName) {
    Duration limit = CLEANUP_LIMIT;
    synchronized (lock) {
      if (reportedStatus != null) {
        // The command passed the gate: its report is (being) printed, the lease released.
        if (signalName != null) {
          awaitReport(System.nanoTime() + limit.toNanos());
          err.flush();
          halt.accept(reportedStatus); // the status the report names, not 128 + the signal's
        }
        return null; // a normal exit, with that status
      }
      boolean leaseHeld = lease != null && lease.state() == HeldLease.State.HELD;
      if (signalName == null && !leaseHeld) {
        return null; // a normal exit: the command released what it held
      }
      if (lease == null && callsInFlight == 0) {
        return null; // no command holds or acquires a lease
      }
      interrupted = true;
      while (childStarting) {
        try {
          lock.wait(); // CMD's start ends by itself: then it is stopped below
        } catch (InterruptedException e) {
          // Keep waiting: CMD must not be left running with the lease released.
        }
      }
      // From now on no read of the payload returns: an upload whose end was not read cannot be
      // published any more, so this phase decides what the line may say.
      Phase seen = phase;
      List<Payload> poisoned = List.copyOf(payloads);
      poisoned.forEach(Payload::poison);
      if (lease != null && lease.lease().ttl().compareTo(limit) < 0) {
        limit = lease.lease().ttl();
      }
      return new TakenOver(seen, poisoned, child, limit);
    }
  }

  private String what(Phase seen, ChildProcess command) {
    return switch (seen) {
      case IDLE ->
          command != null && subject == null
              ? "while running " + command
              : subject != null ? "before publishing " + subject : "while holding the lease";
      case UPLOADING, SENT -> "while publishing " + subject;
      case ENDED -> "after publishing " + subject;
    };
  }

  private String outcome(Phase seen, boolean callsEnded) {
    switch (seen) {
      case IDLE:
        return (child != null ? "CMD was stopped and " : "") + "nothing was published";
      case UPLOADING:
        // The end of the payload was never read: no pointer can name this upload.
        if (phase == Phase.ENDED && failure instanceof RetryNotComparedException replay) {
          // A retry of an applied operation, stopped while hashing its payload.
          return "this retry changed nothing (operation "
              + replay.receipt().operation()
              + " was already applied at epoch "
              + replay.receipt().epoch()
              + ")";
        }
        return "nothing was published"
            + (callsEnded ? "" : " (a partial staged file may be left for the sweep)");
      default:
        break;
    }
    if (phase != Phase.ENDED) {
      return unknown(); // the publish call did not end in time
    }
    if (outcome instanceof Applied applied) {
      return "it was published (operation "
          + applied.receipt().operation()
          + " at epoch "
          + applied.receipt().epoch()
          + ")";
    }
    if (outcome instanceof AlreadyApplied replay) {
      return "operation "
          + replay.receipt().operation()
          + " had been published before, at epoch "
          + replay.receipt().epoch()
          + "; nothing was changed";
    }
    if (outcome instanceof RejectedStale stale) {
      return "nothing was published (rejected as stale: epoch "
          + stale.supplied()
          + " is older than "
          + stale.current()
          + ")";
    }
    if (failure instanceof StoreException store && store.outcomeUnknown()) {
      return unknown();
    }
    return "nothing was published (" + failure.getMessage() + ")";
  }

  private String unknown() {
    return "the outcome is unknown, the payload was sent and the pointer swap may have happened"
        + " (publish again with operation "
        + operation
        + " to find out: it says already applied if it was published)";
  }

  /** Waits, holding the lock, until the report is printed or {@code deadline} passes. */
  private void awaitReport(long deadline) {
    while (!reportPrinted) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private boolean awaitCalls(long deadline) {
    synchronized (lock) {
      while (callsInFlight > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /** Releases the lease, bounded by {@code deadline}. */
  private String release(HeldLease held, long deadline) {
    String resource = held.token().resource().value();
    boolean closedBefore = held.state() != HeldLease.State.HELD;
    CompletableFuture<Void> release =
        CompletableFuture.runAsync(
            () -> {
              held.close();
              if (closedBefore) {
                // The command was releasing it itself: make sure it is released before the halt.
                // Releasing again does nothing at the issuer; a failure here (the command may
                // have closed its stores) says nothing about the command's own release.
                try {
                  issuer.release(held.lease());
                } catch (RuntimeException e) {
                  // See above.
                }
              }
            },
            task -> {
              Thread thread = new Thread(task, "fenceline-release");
              thread.setDaemon(true);
              thread.start();
            });
    long left = Math.max(deadline - System.nanoTime(), 0);
    try {
      release.get(left, TimeUnit.NANOSECONDS);
      return "the lease on " + resource + " was released";
    } catch (TimeoutException e) {
      return "the lease on "
          + resource
          + " may still be held until it expires (its release did not finish in time)";
    } catch (java.util.concurrent.ExecutionException e) {
      return "the lease on "
          + resource
          + " could not be released ("
          + e.getCause().getMessage()
          + "; it expires by itself)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "the lease on " + resource + " may still be held until it expires";
    }
  }

  /** Parks the command's thread for good: the hook reports, then the JVM halts. */
  private void awaitHalt() {
    while (true) {
      try {
        lock.wait();
      } catch (InterruptedException e) {
        // Keep waiting: the JVM is halting.
      }
    }
  }

  /** A payload stream the hook can make fail. */
  private final class Payload extends FilterInputStream {
    private volatile boolean poisoned;

    Payload(InputStream in) {
      super(in);
    }

    void poison() {
      poisoned = true;
    }

    @Override
    public void close() {
      try {
        in.close(); // also from the hook: a read blocked on a pipe returns
      } catch (IOException | RuntimeException e) {
        // The reads fail all the same once poisoned.
      }
    }

    private InterruptedIOException stopped() {
      return new InterruptedIOException(
          "interrupted ("
              + (signal != null ? signal : "told to exit")
              + "): the upload was stopped");
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (poisoned) {
        throw stopped();
      }
      int n;
      try {
        n = super.read(buffer, offset, length);
      } catch (IOException e) {
        if (poisoned) {
          throw stopped();
        }
        throw e;
      }
      synchronized (lock) {
        // Decided under the lock the hook takes: either the hook saw the end, or no read after
        // the hook started returns anything.
        if (poisoned || interrupted) {
          throw stopped();
        }
        if (n < 0 && phase == Phase.UPLOADING) {
          phase = Phase.SENT;
        }
      }
      return n;
    }

    /** Skips by reading: {@code FilterInputStream.skip} would pass the poison by. */
    @Override
    public long skip(long n) throws IOException {
      byte[] buffer = new byte[8192];
      long skipped = 0;
      while (skipped < n) {
        int read = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
        if (read < 0) {
          break;
        }
        skipped += read;
      }
      return skipped;
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }
}
