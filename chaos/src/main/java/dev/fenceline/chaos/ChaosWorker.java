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
package dev.fenceline.chaos;

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseLostException;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * The main class of a chaos worker JVM, started by {@link ChaosRun}: opens the target, prints
 * {@code ready <nanoTime>} on standard output, then acquires, registers, writes, reads and releases
 * at random (seeded) until its standard input closes or the stop file appears, writing every invoke
 * and completion to its own history file before it uses the call's result.
 *
 * <p>Arguments: {@code --name W --seed S --resources N --lease-ttl-ms MS --factory CLASS --history
 * FILE [--threads K] [--stop-file FILE] [--setting KEY=VALUE]...}. Exit status 0 after a stop, 2
 * for bad arguments or a target that cannot be opened (the reason on standard error).
 *
 * <p>With {@code --threads K} above 1 the JVM runs K loops at once, each its own process in the
 * history ({@code W/1} ... {@code W/K}, each with its own holder name, seed and indexes) over one
 * opened target: a SIGSTOP freezes them all, as a GC pause does, and a SIGKILL ends them all.
 *
 * <p>The line protocol with the driver, which lets it choose the moment of a fault (the signals
 * themselves, SIGSTOP / SIGCONT / SIGKILL, come from the driver):
 *
 * <ul>
 *   <li>stdout {@code ready <nanoTime>}: once, when the target is open.
 *   <li>stdin {@code pause-before-write}: at the next WRITE of any loop (lease acquired and
 *       registered, "compute" done, before its INVOKE line) the loop prints {@code at-write
 *       <process>#<index>} (the process and index the write's INVOKE line will carry) and blocks
 *       until {@code go}, at most {@link #GO_WAIT_TTLS} × the lease ttl (then it writes anyway and
 *       notes that on stderr).
 *   <li>stdin {@code go}: ends that wait; without a wait it cancels a pending {@code
 *       pause-before-write} (the driver sends it after pausing a worker that reached no write).
 *   <li>stdin {@code kill-in-write}: at the next WRITE of any loop, right after its INVOKE line is
 *       written and just before the publish call, the loop prints {@code in-write
 *       <process>#<index>} and goes on.
 *   <li>end of stdin (or the stop file): the worker ends its round and exits; a wait for {@code go}
 *       ends too.
 * </ul>
 *
 * <p>Other stdin lines are ignored. Every wait is bounded, so no handshake can hang a worker.
 */
public final class ChaosWorker {

  /** Probability of a read per round (when the target can read). */
  static final double READ_PROBABILITY = 0.2;

  /** Probability of retrying a write with a definite outcome (same operation, same token). */
  static final double RETRY_PROBABILITY = 0.1;

  /** Probability of letting a lease lapse instead of releasing it. */
  static final double LAPSE_PROBABILITY = 0.2;

  /** Probability of reusing a recently written operation ID instead of job-(epoch/2)-k. */
  static final double REUSE_PROBABILITY = 0.15;

  /** The mean pause after an acquire that got no lease, in milliseconds. */
  static final int BUSY_BACKOFF_MILLIS = 50;

  /** Retries after an unknown outcome, at most. */
  static final int MAX_UNKNOWN_RETRIES = 3;

  /** The most loops one worker JVM runs ({@code --threads}). */
  static final int MAX_THREADS = 16;

  /** A worker waits for {@code go} at most this many lease ttls. */
  static final int GO_WAIT_TTLS = 4;

  /** Stdin: stop at the next write and wait for {@link #GO}. */
  static final String PAUSE_BEFORE_WRITE = "pause-before-write";

  /** Stdin: say {@link #IN_WRITE} at the next write, just before publishing. */
  static final String KILL_IN_WRITE = "kill-in-write";

  /** Stdin: go on after {@link #AT_WRITE}, or cancel a pending {@link #PAUSE_BEFORE_WRITE}. */
  static final String GO = "go";

  /** Stdout: {@code at-write <process>#<index>}, stopped before the write's INVOKE line. */
  static final String AT_WRITE = "at-write";

  /**
   * Stdout: {@code in-write <process>#<index>}, the INVOKE line is written, the publish call
   * follows.
   */
  static final String IN_WRITE = "in-write";

  private final String name;
  private final Random random;
  private final int resources;
  private final ChaosTarget target;
  private final Fenceline fenceline;
  private final OutputStream history;
  private final AtomicBoolean stop;
  private final Path stopFile;
  private final Map<String, Deque<String>> recent = new HashMap<>();
  private final Duration ttl;
  private final Signals signals;
  private long index;

  private ChaosWorker(
      String name,
      long seed,
      int resources,
      ChaosTarget target,
      Fenceline fenceline,
      OutputStream history,
      AtomicBoolean stop,
      Path stopFile,
      Duration ttl,
      Signals signals) {
    this.name = name;
    this.random = new Random(seed);
    this.resources = resources;
    this.target = target;
    this.fenceline = fenceline;
    this.history = history;
    this.stop = stop;
    this.stopFile = stopFile;
    this.ttl = ttl;
    this.signals = signals;
  }

  /** What the driver asked on standard input; shared by the stdin thread and the worker. */
  static final class Signals {
    private boolean pauseRequested;
    private boolean killRequested;
    private long gos;
    private boolean closed;

    synchronized void accept(String line) {
      switch (line.strip()) {
        case PAUSE_BEFORE_WRITE -> pauseRequested = true;
        case KILL_IN_WRITE -> killRequested = true;
        case GO -> {
          pauseRequested = false;
          gos++;
          notifyAll();
        }
        default -> {
          // Ignored.
        }
      }
    }

    synchronized void close() {
      closed = true;
      notifyAll();
    }

    /** {@return the number of gos so far if a pause was requested (and takes it), else -1} */
    synchronized long takePause() {
      if (!pauseRequested || closed) {
        return -1;
      }
      pauseRequested = false;
      return gos;
    }

    synchronized boolean takeKill() {
      boolean requested = killRequested;
      killRequested = false;
      return requested;
    }

    /** {@return true if a go after {@code seen} gos came (or stdin closed) within the bound} */
    synchronized boolean awaitGo(long seen, Duration bound) throws InterruptedException {
      long deadline = System.nanoTime() + bound.toNanos();
      long left;
      while (gos == seen && !closed && (left = deadline - System.nanoTime()) > 0) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return gos != seen || closed;
    }
  }

  /**
   * Runs a worker; see the class comment for the arguments.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    int status;
    try {
      status = run(args);
    } catch (IllegalArgumentException | ConfigurationException e) {
      System.err.println("chaos worker: " + e.getMessage());
      status = 2;
    } catch (RuntimeException | IOException | ReflectiveOperationException e) {
      System.err.println("chaos worker: " + e);
      e.printStackTrace();
      status = 2;
    } catch (InterruptedException e) {
      System.err.println("chaos worker: interrupted while opening the target");
      status = 2;
    }
    System.err.flush();
    // Store drivers may keep non-daemon threads; the history is written, so end here.
    Runtime.getRuntime().halt(status);
  }

  private static int run(String[] args)
      throws IOException, ReflectiveOperationException, InterruptedException {
    Map<String, String> options = new HashMap<>();
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String key = args[i];
      if (!key.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "Cannot read argument " + key + ": expected --option value (see ChaosWorker)");
      }
      String value = args[++i];
      if (key.equals("--setting")) {
        int eq = value.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(
              "Cannot read --setting " + value + ": expected KEY=VALUE");
        }
        settings.put(value.substring(0, eq), value.substring(eq + 1));
      } else {
        options.put(key.substring(2), value);
      }
    }
    String name = required(options, "name");
    long seed = Long.parseLong(required(options, "seed"));
    int resources = Integer.parseInt(required(options, "resources"));
    Duration ttl = Duration.ofMillis(Long.parseLong(required(options, "lease-ttl-ms")));
    Path historyFile = Path.of(required(options, "history"));
    Path stopFile = options.containsKey("stop-file") ? Path.of(options.get("stop-file")) : null;
    int threads = Integer.parseInt(options.getOrDefault("threads", "1"));
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "Cannot run " + threads + " threads: --threads must be 1 to " + MAX_THREADS);
    }
    Class<?> factoryClass = Class.forName(required(options, "factory"));
    if (!ChaosTargetFactory.class.isAssignableFrom(factoryClass)) {
      throw new IllegalArgumentException(
          "Cannot use "
              + factoryClass.getName()
              + " as the target: it does not implement "
              + ChaosTargetFactory.class.getName());
    }
    ChaosTargetFactory factory;
    try {
      factory = (ChaosTargetFactory) factoryClass.getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(
          "Cannot create " + factoryClass.getName() + ": " + e.getCause(), e.getCause());
    }

    AtomicBoolean stop = new AtomicBoolean();
    Signals signals = new Signals();
    Thread stdin =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  signals.accept(line);
                }
              } catch (IOException e) {
                // Treated as a stop.
              }
              stop.set(true);
              signals.close();
            },
            "chaos-worker-stdin");
    stdin.setDaemon(true);
    stdin.start();

    try (ChaosTarget target = openTarget(factory, settings, "chaos worker");
        OutputStream history = new FileOutputStream(historyFile.toFile(), true)) {
      runLoops(name, seed, threads, resources, target, history, stop, stopFile, ttl, signals);
    }
    return 0;
  }

  /** Runs {@code threads} loops over the open target until they stop; closes their facades. */
  private static void runLoops(
      String name,
      long seed,
      int threads,
      int resources,
      ChaosTarget target,
      OutputStream history,
      AtomicBoolean stop,
      Path stopFile,
      Duration ttl,
      Signals signals)
      throws InterruptedException {
    List<Fenceline> fencelines = new ArrayList<>();
    try {
      List<Thread> loops = new ArrayList<>();
      for (int j = 1; j <= threads; j++) {
        String loopName = threads == 1 ? name : name + "/" + j;
        Fenceline fenceline = fenceline(target, loopName, ttl);
        fencelines.add(fenceline);
        ChaosWorker worker =
            new ChaosWorker(
                loopName,
                threads == 1 ? seed : seed * 31 + j,
                resources,
                target,
                fenceline,
                history,
                stop,
                stopFile,
                ttl,
                signals);
        Thread loop = new Thread(worker::loop, "chaos-loop-" + loopName);
        loop.setUncaughtExceptionHandler(
            (thread, e) -> {
              // As a single-loop worker would: the JVM ends (the driver restarts the slot).
              System.err.println("chaos worker " + loopName + ": " + e);
              e.printStackTrace();
              System.err.flush();
              Runtime.getRuntime().halt(2);
            });
        loops.add(loop);
      }
      System.out.println("ready " + System.nanoTime());
      System.out.flush();
      loops.forEach(Thread::start);
      for (Thread loop : loops) {
        loop.join();
      }
    } finally {
      for (Fenceline fenceline : fencelines) {
        fenceline.close();
      }
    }
  }

  /**
   * One loop's facade: its own holder name (two loops of one JVM must never share a lease), no
   * background renewal, and every guarantee allowed.
   */
  private static Fenceline fenceline(ChaosTarget target, String holder, Duration ttl) {
    return Fenceline.builder()
        .issuer(target.issuer())
        .holder(holder)
        .leaseTtl(ttl)
        // No background renewal: a round takes far less than the ttl, and a lease left alone
        // then lapses at the issuer (the "let it lapse" branch).
        .renewEvery(Duration.ZERO)
        // The run measures what the destination does, whatever it guarantees; the guarantee is
        // recorded in the history's META line.
        .allowFencedAtIntent(true)
        .allowIdempotentOnly(true)
        .allowUnguarded(true)
        .build();
  }

  /** How long a worker keeps trying to open its target while the store is unreachable. */
  static final Duration OPEN_PATIENCE = Duration.ofSeconds(40);

  /**
   * Opens the target, trying again while the store is unreachable: a worker restarted after a kill
   * may start while the store is faulted (cut off, restarting), and a loaded machine may be slower
   * than a store's login timeout. A configuration error fails at once; the driver waits {@code
   * READY_TIMEOUT} (longer than {@link #OPEN_PATIENCE}) for the ready line. The driver opens it the
   * same way (a local S3Proxy on a loaded machine can cut an answer of the conditional-write probe
   * short).
   *
   * @param who who is opening it, for the message of a failed attempt
   */
  static ChaosTarget openTarget(
      ChaosTargetFactory factory, Map<String, String> settings, String who)
      throws InterruptedException {
    long deadline = System.nanoTime() + OPEN_PATIENCE.toNanos();
    long backoffMillis = 100;
    while (true) {
      try {
        return factory.open(settings);
      } catch (StoreException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw e;
        }
        System.err.println(
            who
                + ": cannot open the target yet, trying again in "
                + backoffMillis
                + " ms: "
                + e.getMessage());
        Thread.sleep(backoffMillis);
        backoffMillis = Math.min(2_000, backoffMillis * 2);
      }
    }
  }

  private static String required(Map<String, String> options, String key) {
    String value = options.get(key);
    if (value == null) {
      throw new IllegalArgumentException("Cannot start a chaos worker: --" + key + " is missing");
    }
    return value;
  }

  private boolean stopping() {
    if (stop.get()) {
      return true;
    }
    if (stopFile != null && Files.exists(stopFile)) {
      stop.set(true);
      return true;
    }
    return false;
  }

  private void loop() {
    while (!stopping()) {
      round();
    }
  }

  /** One round: acquire, register, write 1-3 times, maybe read, release or let lapse. */
  private void round() {
    String resource = "r" + random.nextInt(resources);
    ResourceId id = ResourceId.of(resource);
    HeldLease lease = acquire(id);
    if (lease != null) {
      long epoch = lease.token().epoch().value();
      if (register(lease, epoch)) {
        int writes = 1 + random.nextInt(3);
        for (int k = 0; k < writes && !stopping(); k++) {
          sleepMillis(random.nextInt(31)); // "compute"
          String operation = chooseOperation(resource, epoch);
          Completion done = write(lease.token(), operation);
          int unknownRetries = 0;
          boolean retriedOnce = false;
          while (true) {
            if (done == Completion.UNKNOWN && unknownRetries < MAX_UNKNOWN_RETRIES) {
              unknownRetries++;
            } else if (done == Completion.OK
                && !retriedOnce
                && random.nextDouble() < RETRY_PROBABILITY) {
              retriedOnce = true;
            } else {
              break;
            }
            done = write(lease.token(), operation);
          }
          if (done == Completion.STALE || done == Completion.FAILED) {
            break; // a newer owner took over (or the write cannot succeed): stop writing
          }
        }
      }
    }
    if (target.canRead() && random.nextDouble() < READ_PROBABILITY) {
      read(id);
    }
    if (lease != null) {
      if (random.nextDouble() < LAPSE_PROBABILITY) {
        return; // not released, not renewed: it lapses at the issuer after the ttl
      }
      release(lease);
    } else {
      // Busy (or failed): wait a little before the next try, as a worker polling a lock does, so
      // the loops that hold leases are not queued behind a storm of refused acquires.
      sleepMillis(BUSY_BACKOFF_MILLIS / 2 + random.nextInt(BUSY_BACKOFF_MILLIS));
    }
  }

  /** How a call ended, for the loop. */
  private enum Completion {
    OK,
    STALE,
    FAILED,
    UNKNOWN
  }

  private String chooseOperation(String resource, long epoch) {
    Deque<String> used = recent.computeIfAbsent(resource, r -> new ArrayDeque<>());
    String operation;
    if (!used.isEmpty() && random.nextDouble() < REUSE_PROBABILITY) {
      List<String> list = new ArrayList<>(used);
      operation = list.get(random.nextInt(list.size()));
    } else {
      operation = "job-" + epoch / 2 + "-" + random.nextInt(3);
    }
    used.remove(operation);
    used.addFirst(operation);
    while (used.size() > 6) {
      used.removeLast();
    }
    return operation;
  }

  private HeldLease acquire(ResourceId resource) {
    long i = index++;
    log(invoke(i, Event.ACQUIRE, resource.value()).build());
    try {
      Optional<HeldLease> lease = fenceline.tryAcquire(resource);
      if (lease.isPresent()) {
        log(
            done(Event.Type.OK, i, Event.ACQUIRE, resource.value())
                .epoch(lease.get().token().epoch().value())
                .outcome(Event.ACQUIRED)
                .build());
        return lease.get();
      }
      log(done(Event.Type.OK, i, Event.ACQUIRE, resource.value()).outcome(Event.BUSY).build());
      return null;
    } catch (RuntimeException e) {
      log(failure(i, Event.ACQUIRE, resource.value(), e, line -> line));
      return null;
    }
  }

  /** {@return true if the owner may go on writing} */
  private boolean register(HeldLease lease, long epoch) {
    String resource = lease.token().resource().value();
    long i = index++;
    log(invoke(i, Event.REGISTER, resource).epoch(epoch).build());
    try {
      RegisterOutcome outcome = fenceline.register(lease, target.destination());
      if (outcome instanceof Registered registered) {
        log(
            done(Event.Type.OK, i, Event.REGISTER, resource)
                .epoch(epoch)
                .outcome(Event.REGISTERED)
                .current(registered.previous().value())
                .build());
        return true;
      }
      RejectedStale stale = (RejectedStale) outcome;
      log(
          done(Event.Type.OK, i, Event.REGISTER, resource)
              .epoch(epoch)
              .outcome(Event.REJECTED_STALE)
              .current(stale.current().value())
              .build());
      return false;
    } catch (RuntimeException e) {
      Event line = failure(i, Event.REGISTER, resource, e, b -> b.epoch(epoch));
      log(line);
      // After an unknown outcome the writes decide; after a certain failure, stop.
      return line.type() == Event.Type.INFO;
    }
  }

  private Completion write(FencingToken token, String operation) {
    String resource = token.resource().value();
    long epoch = token.epoch().value();
    long i = index++;
    long seen = signals.takePause();
    if (seen >= 0) {
      say(AT_WRITE + " " + name + "#" + i);
      awaitGo(seen, i);
    }
    log(
        invoke(i, Event.WRITE, resource)
            .epoch(epoch)
            .operation(operation)
            .value(operation)
            .build());
    byte[] payload = ("op=" + operation + "\n").getBytes(StandardCharsets.UTF_8);
    if (signals.takeKill()) {
      say(IN_WRITE + " " + name + "#" + i);
    }
    try {
      WriteOutcome outcome = target.publish(fenceline, token, OperationId.of(operation), payload);
      Event.Builder line =
          done(Event.Type.OK, i, Event.WRITE, resource)
              .epoch(epoch)
              .operation(operation)
              .value(operation);
      if (outcome instanceof Applied applied) {
        log(line.outcome(Event.APPLIED).receipt(Event.ReceiptView.of(applied.receipt())).build());
        return Completion.OK;
      }
      if (outcome instanceof AlreadyApplied already) {
        log(
            line.outcome(Event.ALREADY_APPLIED)
                .receipt(Event.ReceiptView.of(already.receipt()))
                .build());
        return Completion.OK;
      }
      RejectedStale stale = (RejectedStale) outcome;
      log(line.outcome(Event.REJECTED_STALE).current(stale.current().value()).build());
      return Completion.STALE;
    } catch (RuntimeException e) {
      Event line =
          failure(
              i,
              Event.WRITE,
              resource,
              e,
              b -> b.epoch(epoch).operation(operation).value(operation));
      log(line);
      return line.type() == Event.Type.INFO ? Completion.UNKNOWN : Completion.FAILED;
    }
  }

  private void read(ResourceId resource) {
    long i = index++;
    log(invoke(i, Event.READ, resource.value()).build());
    try {
      Optional<byte[]> payload = target.read(resource);
      Event.Builder line = done(Event.Type.OK, i, Event.READ, resource.value());
      if (payload.isEmpty()) {
        log(line.outcome(Event.NOT_FOUND).build());
      } else {
        log(line.outcome(Event.FOUND).value(valueOf(payload.get())).build());
      }
    } catch (RuntimeException e) {
      // A read changes nothing: whatever went wrong, it is a failure, not an unknown.
      log(
          done(Event.Type.FAIL, i, Event.READ, resource.value())
              .outcome(Event.ERROR)
              .error(describe(e))
              .build());
    }
  }

  /**
   * The operation ID a payload names ({@code op=<operation>\n}), or {@code raw:<text>} for a
   * payload no worker wrote (which the checker then reports as never published).
   */
  static String valueOf(byte[] payload) {
    String text = new String(payload, StandardCharsets.UTF_8);
    if (text.startsWith("op=") && text.endsWith("\n") && text.indexOf('\n') == text.length() - 1) {
      return text.substring(3, text.length() - 1);
    }
    return "raw:" + (text.length() > 100 ? text.substring(0, 100) + "..." : text);
  }

  private void release(HeldLease lease) {
    String resource = lease.token().resource().value();
    long epoch = lease.token().epoch().value();
    long i = index++;
    log(invoke(i, Event.RELEASE, resource).epoch(epoch).build());
    try {
      lease.close();
      log(done(Event.Type.OK, i, Event.RELEASE, resource).epoch(epoch).build());
    } catch (RuntimeException e) {
      log(failure(i, Event.RELEASE, resource, e, b -> b.epoch(epoch)));
    }
  }

  private Event.Builder invoke(long i, String f, String resource) {
    return Event.of(Event.Type.INVOKE, System.nanoTime())
        .process(name)
        .index(i)
        .f(f)
        .resource(resource);
  }

  /** A completion line. */
  private Event.Builder done(Event.Type type, long i, String f, String resource) {
    return Event.of(type, System.nanoTime()).process(name).index(i).f(f).resource(resource);
  }

  /**
   * The completion of a call that threw: FAIL Error when it certainly changed nothing, INFO Unknown
   * otherwise; {@code fields} adds the call's own fields.
   */
  private Event failure(
      long i, String f, String resource, RuntimeException e, UnaryOperator<Event.Builder> fields) {
    boolean certain =
        (e instanceof StoreException store && !store.outcomeUnknown())
            || e instanceof UntrustedTokenException
            || e instanceof OperationConflictException
            || e instanceof LeaseLostException
            || e instanceof ConfigurationException;
    Event.Builder line =
        done(certain ? Event.Type.FAIL : Event.Type.INFO, i, f, resource)
            .outcome(certain ? Event.ERROR : Event.UNKNOWN)
            .error(describe(e));
    return fields.apply(line).build();
  }

  private static String describe(Throwable e) {
    String text = e.getClass().getSimpleName() + ": " + e.getMessage();
    return text.length() > 500 ? text.substring(0, 500) + "..." : text;
  }

  /**
   * Writes one line with one {@code write} call, before the caller uses the result (the loops of
   * one JVM share the file: one line at a time).
   */
  private void log(Event event) {
    byte[] line = (History.toLine(event) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      synchronized (history) {
        history.write(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the worker history: " + e.getMessage(), e);
    }
  }

  /** One protocol line on standard output, flushed (one line at a time across the loops). */
  private static void say(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }

  /** Waits for the driver's go (bounded); the write follows whatever happens. */
  private void awaitGo(long seen, long i) {
    Duration bound = ttl.multipliedBy(GO_WAIT_TTLS);
    try {
      if (!signals.awaitGo(seen, bound)) {
        System.err.println(
            "chaos worker "
                + name
                + ": no go within "
                + bound.toMillis()
                + " ms after at-write "
                + i
                + "; writing anyway");
        System.err.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
