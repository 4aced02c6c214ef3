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

import static java.util.Objects.requireNonNull;

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.History;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A chaos run: worker JVMs ({@link ChaosWorker}) acquire, register, write and read against one
 * target while the driver pauses ({@code kill -STOP} for longer than the lease, then {@code kill
 * -CONT}) and kills ({@code kill -KILL}, then a new worker) them and injects store faults, all from
 * a schedule planned from the seed. At the end the driver stops the workers, reads the final state
 * and merges everything into {@code history.jsonl} (META first, every line by time, FINAL last).
 *
 * <pre>{@code
 * ChaosResult result =
 *     ChaosRun.builder()
 *         .config(Path.of("fenceline.yaml"), "reports")
 *         .duration(Duration.ofSeconds(60))
 *         .workers(8)
 *         .out(Path.of("chaos-out"))
 *         .build()
 *         .run();
 * }</pre>
 *
 * <p>No worker process outlives {@link #run()}: they are stopped (standard input closed), killed
 * after a bound, and killed by a shutdown hook if the driver's JVM ends first.
 */
public final class ChaosRun {

  /** The fault kinds a run knows. */
  public static final Set<String> FAULT_KINDS =
      Set.of(FaultSchedule.PAUSE, FaultSchedule.KILL, FaultSchedule.STORE);

  private static final String DRIVER = "driver";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  /** Tries of each final lookup before the operation is left unresolved. */
  private static final int FINAL_LOOKUP_ATTEMPTS = 4;

  private static final Duration STOP_BOUND = Duration.ofSeconds(20);

  /** FAULT value of a pause that froze its victim right before a write ({@code index}). */
  static final String BEFORE_WRITE = "before-write";

  /** FAULT value of a kill that landed during a write ({@code index}: the write's). */
  static final String IN_WRITE = "in-write";

  /** FAULT value of a pause or kill that struck wherever the victim was. */
  static final String ANYWHERE = "anywhere";

  private final Class<? extends ChaosTargetFactory> factory;
  private final Map<String, String> settings;
  private final Duration duration;
  private final int workers;
  private final int threads;
  private final int resources;
  private final Set<String> faults;
  private final long seed;
  private final Path out;
  private final Duration leaseTtl;
  private final Duration faultEvery;
  private final StoreFaults storeFaults;
  private final String classpath;
  private final List<String> jvmOptions;

  private final List<Event> driverEvents = Collections.synchronizedList(new ArrayList<>());
  private final List<WorkerHandle> spawned = new CopyOnWriteArrayList<>();
  private final WorkerHandle[] current;
  private final boolean[] hit;
  private final int[] generations;
  private volatile boolean stopping;
  private volatile boolean faultsOver;
  private int clockChecks;
  private int skippedFaults;
  private int pausesBeforeWrite;
  private int pausesAnywhere;
  private int killsInWrite;
  private int killsInWriteMissed;
  private int killsAnywhere;
  private int stragglers;
  private boolean storeFaulted;

  private ChaosRun(Builder b) {
    this.factory = b.factory;
    this.settings = Map.copyOf(b.settings);
    this.duration = b.duration;
    this.workers = b.workers;
    this.threads = b.threads;
    this.resources = b.resources;
    this.faults = Collections.unmodifiableSet(new TreeSet<>(b.effectiveFaults()));
    this.seed = b.seed != null ? b.seed : new Random().nextLong();
    this.out = b.out;
    this.leaseTtl = b.leaseTtl;
    this.faultEvery = b.faultEvery;
    this.storeFaults = b.storeFaults;
    this.classpath = b.classpath != null ? b.classpath : System.getProperty("java.class.path");
    this.jvmOptions = List.copyOf(b.jvmOptions);
    this.current = new WorkerHandle[workers];
    this.hit = new boolean[workers];
    this.generations = new int[workers];
  }

  /** Starts a configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /** The seed of this run (chosen at random unless {@link Builder#seed} was given). */
  public long seed() {
    return seed;
  }

  /** The fault schedule this run's seed and settings give (kinds, victims, offsets, durations). */
  List<FaultSchedule.Fault> schedule() {
    return FaultSchedule.plan(seed, duration, faultEvery, faults, workers, leaseTtl, storeKinds());
  }

  private List<String> storeKinds() {
    return storeFaults == null ? List.of() : List.copyOf(storeFaults.kinds());
  }

  /**
   * Runs the workers for the duration under the faults, then writes {@code history.jsonl} (and
   * {@code workers/*.jsonl}, {@code workers/*.log}) in the output directory.
   *
   * @return what the run produced
   * @throws IOException if the output cannot be written
   * @throws InterruptedException if interrupted (the workers are killed)
   * @throws ChaosRunException if a worker cannot be started or signalled, or the workers' clocks
   *     are not the driver's
   * @throws dev.fenceline.spi.ConfigurationException if the target cannot be opened
   */
  public ChaosResult run() throws IOException, InterruptedException {
    Path workersDir = out.resolve("workers");
    Files.createDirectories(workersDir);
    clearOldOutput(workersDir);
    long runStart = System.nanoTime();
    Instant startedAt = Instant.now();
    Map<String, String> meta = describeTarget();
    List<FaultSchedule.Fault> schedule = schedule();
    Files.write(
        out.resolve("schedule.txt"),
        schedule.stream().map(ChaosRun::describe).toList(),
        StandardCharsets.UTF_8);

    Thread hook = new Thread(this::killAll, "fenceline-chaos-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    ExecutorService restarts =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "fenceline-chaos-restart");
              thread.setDaemon(true);
              return thread;
            });
    ExecutorService workerFaults =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "fenceline-chaos-fault");
              thread.setDaemon(true);
              return thread;
            });
    long faultsStart;
    long faultsEnd;
    try {
      spawnAll(workersDir);
      faultsStart = System.nanoTime();
      executeSchedule(schedule, faultsStart, workerFaults, restarts, workersDir);
      faultsEnd = System.nanoTime();
      faultsOver = true; // pauses end now, waits for a write give up
      workerFaults.shutdown();
      workerFaults.awaitTermination(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      // A kill timed on a write may have struck just before the end: let its restart finish, so
      // every kill has its restart.
      restarts.shutdown();
      restarts.awaitTermination(READY_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
      stopping = true;
      endFaults();
      stopWorkers(workersDir);
    } finally {
      faultsOver = true;
      stopping = true;
      workerFaults.shutdownNow();
      restarts.shutdownNow();
      killAll();
      if (storeFaulted) {
        healQuietly();
      }
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is shutting down; the hook runs anyway.
      }
    }

    List<Event> lines = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(workersDir, "*.jsonl")) {
      for (Path file : files) {
        lines.addAll(History.read(file));
      }
    }
    lines.addAll(driverEvents);
    lines.sort(Comparator.comparingLong(Event::t));
    List<Event> finals = finalLines(lines);

    meta.put("seed", Long.toString(seed));
    meta.put("workers", Integer.toString(workers));
    meta.put("threads", Integer.toString(threads));
    meta.put("resources", Integer.toString(resources));
    meta.put("duration", duration.toString());
    meta.put("lease-ttl", leaseTtl.toString());
    meta.put("fault-every", faultEvery.toString());
    meta.put("faults", String.join(",", faults));
    meta.put("store-fault-kinds", String.join(",", storeKinds()));
    meta.put("factory", factory.getName());
    settings.forEach((k, v) -> meta.put("setting." + k, v));
    meta.put("started-at", startedAt.toString());
    meta.put("faults-started-t", Long.toString(faultsStart));
    meta.put("faults-ended-t", Long.toString(faultsEnd));
    meta.put("planned-faults", Integer.toString(schedule.size()));
    meta.put("skipped-faults", Integer.toString(skippedFaults));
    meta.put("stragglers-killed", Integer.toString(stragglers));
    meta.put(
        "fault-timing",
        "pauses before a write "
            + pausesBeforeWrite
            + ", anywhere (no write within "
            + writeWait().toMillis()
            + " ms) "
            + pausesAnywhere
            + "; kills in a write "
            + killsInWrite
            + ", planned in a write but anywhere "
            + killsInWriteMissed
            + ", anywhere as planned "
            + killsAnywhere);
    meta.put(
        "clock-check",
        "shared: every worker's ready time lay between the driver's times around it ("
            + clockChecks
            + " workers)");
    meta.put("java", Runtime.version().toString());
    Event metaLine = Event.of(Event.Type.META, runStart).process(DRIVER).meta(meta).build();

    Path history = out.resolve("history.jsonl");
    long operations = 0;
    Map<String, Long> byKind = new TreeMap<>();
    try (BufferedWriter writer = Files.newBufferedWriter(history, StandardCharsets.UTF_8)) {
      for (Event event : concat(List.of(metaLine), lines, finals)) {
        writer.write(History.toLine(event));
        writer.write('\n');
        if (event.type() == Event.Type.INVOKE) {
          operations++;
        }
        if (event.type() == Event.Type.FAULT && event.error() == null && isInjection(event)) {
          byKind.merge(event.fault(), 1L, Long::sum);
        }
      }
    }
    return new ChaosResult(out, history, operations, byKind);
  }

  private static boolean isInjection(Event fault) {
    return !Set.of("resume", "restart", "heal").contains(fault.fault());
  }

  @SafeVarargs
  private static List<Event> concat(List<Event>... parts) {
    List<Event> all = new ArrayList<>();
    for (List<Event> part : parts) {
      all.addAll(part);
    }
    return all;
  }

  private static String describe(FaultSchedule.Fault f) {
    return f.offsetMillis()
        + "ms "
        + f.kind()
        + (f.slot() >= 0 ? " w" + f.slot() : "")
        + (f.storeKind() != null ? " " + f.storeKind() : "")
        + (f.durationMillis() > 0 ? " for " + f.durationMillis() + "ms" : "");
  }

  private static void clearOldOutput(Path workersDir) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(workersDir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.endsWith(".jsonl") || name.endsWith(".log") || name.equals("stop")) {
          Files.delete(file);
        }
      }
    }
    Files.deleteIfExists(workersDir.getParent().resolve("history.jsonl"));
  }

  private ChaosTarget openTarget() {
    ChaosTargetFactory instance;
    try {
      instance = factory.getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new ChaosRunException("Cannot create " + factory.getName() + ": " + e.getCause(), e);
    } catch (ReflectiveOperationException e) {
      throw new ChaosRunException(
          "Cannot create "
              + factory.getName()
              + ": "
              + e
              + " (a target factory needs a public no-argument constructor)",
          e);
    }
    try {
      return ChaosWorker.openTarget(instance, settings, "fenceline chaos");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChaosRunException("Interrupted while opening the target", e);
    }
  }

  /** Opens the target once (creating its schema before the workers race to) for the META line. */
  private Map<String, String> describeTarget() {
    Map<String, String> meta = new LinkedHashMap<>();
    try (ChaosTarget target = openTarget()) {
      Destination<?> destination = target.destination();
      meta.put("target", target.toString());
      meta.put("destination", destination.name());
      meta.put("guarantee", destination.guarantee().toString());
      meta.put(
          "capabilities",
          destination.capabilities().stream()
              .map(Capability::name)
              .sorted()
              .collect(Collectors.joining(",")));
      meta.put("can-read", Boolean.toString(target.canRead()));
      meta.put("issuer", target.issuer().id());
    }
    return meta;
  }

  private List<String> command(String name, long workerSeed, Path workersDir) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    // Small, quick-starting JVMs: the workers do little work. A short run stops at the first JIT
    // tier (a restarted worker is soon at full speed); a long one lets hot code be optimized.
    command.add("-XX:+UseSerialGC");
    if (duration.compareTo(FULL_JIT_FROM) < 0) {
      command.add("-XX:TieredStopAtLevel=1");
    }
    command.add("-Xshare:auto");
    command.add("-Xmx128m");
    if (Runtime.version().feature() >= 22) {
      command.add("--enable-native-access=ALL-UNNAMED"); // sqlite-jdbc loads a native library
    }
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(ChaosWorker.class.getName());
    command.add("--name");
    command.add(name);
    command.add("--seed");
    command.add(Long.toString(workerSeed));
    command.add("--resources");
    command.add(Integer.toString(resources));
    command.add("--threads");
    command.add(Integer.toString(threads));
    command.add("--lease-ttl-ms");
    command.add(Long.toString(leaseTtl.toMillis()));
    command.add("--factory");
    command.add(factory.getName());
    command.add("--history");
    command.add(workersDir.resolve(name + ".jsonl").toString());
    command.add("--stop-file");
    command.add(workersDir.resolve("stop").toString());
    settings.forEach(
        (k, v) -> {
          command.add("--setting");
          command.add(k + "=" + v);
        });
    return command;
  }

  private static String javaBinary() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  private static String workerName(int slot, int generation) {
    return generation == 1 ? "w" + slot : "w" + slot + "." + generation;
  }

  private WorkerHandle launch(int slot, Path workersDir) {
    int generation;
    synchronized (this) {
      generation = ++generations[slot];
    }
    String name = workerName(slot, generation);
    long workerSeed = seed + slot + 1_000_003L * (generation - 1);
    WorkerHandle handle =
        WorkerHandle.start(
            name,
            slot,
            generation,
            command(name, workerSeed, workersDir),
            workersDir.resolve(name + ".log"));
    spawned.add(handle);
    if (stopping) {
      handle.close(); // the run ended while this one started
    }
    return handle;
  }

  /** Checks the worker's ready time against the driver's clock around it. */
  private void checkClock(WorkerHandle handle, long before, long ready, long after) {
    if (ready < before || ready > after) {
      throw new ChaosRunException(
          "Cannot merge the histories: worker "
              + handle.name()
              + " reported nanoTime "
              + ready
              + " when ready, outside the driver's "
              + before
              + ".."
              + after
              + " around it, so System.nanoTime is not one clock across the processes of this"
              + " host (run the driver and the workers on one Linux or macOS host)");
    }
    synchronized (this) {
      clockChecks++;
    }
  }

  private void spawnAll(Path workersDir) throws InterruptedException {
    long before = System.nanoTime();
    for (int slot = 0; slot < workers; slot++) {
      current[slot] = launch(slot, workersDir);
    }
    for (int slot = 0; slot < workers; slot++) {
      long ready = current[slot].awaitReady(READY_TIMEOUT);
      checkClock(current[slot], before, ready, System.nanoTime());
    }
  }

  private record Action(long at, boolean start, int order, FaultSchedule.Fault fault) {}

  /**
   * Runs the schedule: store faults inline, each pause and kill in its own task on {@code
   * workerFaults} (a pause first waits, bounded, for its victim to reach a write), so a wait does
   * not delay the faults planned after it.
   */
  private void executeSchedule(
      List<FaultSchedule.Fault> schedule,
      long start,
      ExecutorService workerFaults,
      ExecutorService restarts,
      Path workersDir)
      throws InterruptedException {
    List<Action> actions = new ArrayList<>();
    for (int i = 0; i < schedule.size(); i++) {
      FaultSchedule.Fault fault = schedule.get(i);
      actions.add(new Action(fault.offsetMillis(), true, i, fault));
      if (fault.kind().equals(FaultSchedule.STORE) && fault.durationMillis() > 0) {
        actions.add(new Action(fault.offsetMillis() + fault.durationMillis(), false, i, fault));
      }
    }
    actions.sort(Comparator.comparingLong(Action::at).thenComparingInt(Action::order));
    long end = start + duration.toNanos();
    for (Action action : actions) {
      long due = start + TimeUnit.MILLISECONDS.toNanos(action.at());
      if (due - end >= 0) {
        break;
      }
      sleepUntil(due);
      FaultSchedule.Fault fault = action.fault();
      switch (fault.kind()) {
        case FaultSchedule.PAUSE -> {
          WorkerHandle victim = claim(fault.slot());
          if (victim != null) {
            workerFaults.execute(() -> pause(victim, fault));
          }
        }
        case FaultSchedule.KILL -> {
          WorkerHandle victim = claim(fault.slot());
          if (victim != null) {
            workerFaults.execute(() -> kill(victim, fault, restarts, workersDir));
          }
        }
        case FaultSchedule.STORE -> {
          if (action.start()) {
            try {
              String what = storeFaults.inject(fault.storeKind(), new Random(fault.detailSeed()));
              storeFaulted = true;
              fault(fault.storeKind(), "store", what, null, null);
            } catch (Exception e) {
              storeFaulted = true; // heal anyway: it may have half happened
              fault(fault.storeKind(), "store", null, null, "not injected: " + e);
            }
          } else if (storeFaulted) {
            heal();
          }
        }
        default -> throw new IllegalStateException("unknown fault kind " + fault.kind());
      }
    }
    sleepUntil(end);
  }

  /** Runs this long or longer give their workers the optimizing JIT compiler. */
  static final Duration FULL_JIT_FROM = Duration.ofMinutes(3);

  /**
   * The process of a worker's {@code at-write} / {@code in-write} answer ({@code
   * <process>#<index>}): one of the victim's loops.
   */
  private static String processOf(String answer, WorkerHandle victim) {
    int hash = answer.lastIndexOf('#');
    return hash > 0 ? answer.substring(0, hash) : victim.name();
  }

  /** The index of a worker's {@code at-write} / {@code in-write} answer. */
  private static Long indexOf(String answer) {
    return Long.valueOf(answer.substring(answer.lastIndexOf('#') + 1));
  }

  /** How long a pause or kill waits for its victim to reach a write before it strikes anyway. */
  private Duration writeWait() {
    return leaseTtl.multipliedBy(2);
  }

  /**
   * A pause: asks the victim to stop before its next write, SIGSTOPs it there (or, when it reaches
   * no write within {@link #writeWait()}, wherever it is), waits the planned length, SIGCONTs it
   * and lets it write (with its old token: the article's case).
   */
  private void pause(WorkerHandle victim, FaultSchedule.Fault fault) {
    try {
      String at = null;
      if (victim.send(ChaosWorker.PAUSE_BEFORE_WRITE)) {
        at = victim.awaitLine(ChaosWorker.AT_WRITE, writeWait(), () -> faultsOver);
      }
      if (faultsOver || !victim.isAlive()) {
        victim.send(ChaosWorker.GO);
        skipped();
        return;
      }
      victim.pause();
      fault(
          FaultSchedule.PAUSE,
          at != null ? processOf(at, victim) : victim.name(),
          at != null ? BEFORE_WRITE : ANYWHERE,
          at != null ? indexOf(at) : null,
          null);
      synchronized (this) {
        if (at != null) {
          pausesBeforeWrite++;
        } else {
          pausesAnywhere++;
        }
      }
      waitUnlessOver(TimeUnit.MILLISECONDS.toNanos(fault.durationMillis()));
      victim.resume();
      fault("resume", victim.name(), null, null, null);
      victim.send(ChaosWorker.GO); // lets it write, or cancels the request it never reached
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      fault(FaultSchedule.PAUSE, victim.name(), null, null, "not paused or resumed: " + e);
    } finally {
      release(victim.slot());
    }
  }

  /**
   * A kill: for a kill planned {@link FaultSchedule.Fault#inWrite() in a write}, asks the victim to
   * say when it is about to publish and SIGKILLs it the planned 0-30 ms later (or wherever it is
   * when it reaches no write within {@link #writeWait()}); others at once. Then restarts the slot
   * (the slot stays claimed until the new worker is ready).
   */
  private void kill(
      WorkerHandle victim, FaultSchedule.Fault fault, ExecutorService restarts, Path workersDir) {
    boolean restarting = false;
    try {
      String in = null;
      if (fault.inWrite()) {
        if (victim.send(ChaosWorker.KILL_IN_WRITE)) {
          in = victim.awaitLine(ChaosWorker.IN_WRITE, writeWait(), () -> faultsOver);
        }
        if (faultsOver) {
          skipped();
          return;
        }
        if (in != null && fault.inWriteDelayMillis() > 0) {
          TimeUnit.MILLISECONDS.sleep(fault.inWriteDelayMillis());
        }
      }
      victim.kill();
      fault(
          FaultSchedule.KILL,
          in != null ? processOf(in, victim) : victim.name(),
          in != null ? IN_WRITE : ANYWHERE,
          in != null ? indexOf(in) : null,
          null);
      synchronized (this) {
        if (in != null) {
          killsInWrite++;
        } else if (fault.inWrite()) {
          killsInWriteMissed++;
        } else {
          killsAnywhere++;
        }
      }
      restarts.execute(() -> restart(fault.slot(), workersDir));
      restarting = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (!restarting) {
        release(victim.slot());
      }
    }
  }

  /**
   * The slot's worker, claimed for a fault, if it can take one now: alive, not under another fault,
   * and not the last worker left alone; else null (the fault is skipped).
   */
  private synchronized WorkerHandle claim(int slot) {
    WorkerHandle handle = current[slot];
    int hitNow = 0;
    for (boolean h : hit) {
      hitNow += h ? 1 : 0;
    }
    if (hit[slot]
        || hitNow >= Math.max(1, workers - 1)
        || handle == null
        || !handle.isAlive()
        || handle.isPaused()) {
      skippedFaults++;
      return null;
    }
    hit[slot] = true;
    return handle;
  }

  private synchronized void release(int slot) {
    hit[slot] = false;
  }

  private synchronized void skipped() {
    skippedFaults++;
  }

  private void waitUnlessOver(long nanos) throws InterruptedException {
    long due = System.nanoTime() + nanos;
    long left;
    while (!faultsOver && (left = due - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
    }
  }

  private void restart(int slot, Path workersDir) {
    try {
      long before = System.nanoTime();
      WorkerHandle next = launch(slot, workersDir);
      long ready = next.awaitReady(READY_TIMEOUT);
      checkClock(next, before, ready, System.nanoTime());
      synchronized (this) {
        current[slot] = next;
      }
      fault("restart", next.name(), null, null, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      if (!stopping) {
        fault("restart", "w" + slot, null, null, "not restarted: " + e.getMessage());
      }
    } finally {
      release(slot);
    }
  }

  private void heal() {
    try {
      storeFaults.heal();
      storeFaulted = false;
      fault("heal", "store", null, null, null);
    } catch (Exception e) {
      fault("heal", "store", null, null, "not healed: " + e);
    }
  }

  private void healQuietly() {
    try {
      storeFaults.heal();
      storeFaulted = false;
    } catch (Exception e) {
      // Reported by the heal in endFaults already, if it ran.
    }
  }

  /** Resumes paused workers and heals the store, so the workers can finish their round. */
  private void endFaults() {
    for (WorkerHandle handle : spawned) {
      if (handle.isAlive() && handle.isPaused()) {
        handle.resume();
        fault("resume", handle.name(), null, null, null);
      }
    }
    if (storeFaulted) {
      heal();
    }
  }

  private void stopWorkers(Path workersDir) throws InterruptedException, IOException {
    Files.writeString(workersDir.resolve("stop"), "stop\n", StandardCharsets.UTF_8);
    for (WorkerHandle handle : spawned) {
      handle.requestStop();
    }
    long deadline = System.nanoTime() + STOP_BOUND.toNanos();
    for (WorkerHandle handle : spawned) {
      long left = Math.max(0, deadline - System.nanoTime());
      if (!handle.awaitExit(Duration.ofNanos(left))) {
        stragglers++;
        handle.close();
      }
    }
  }

  /** Continues and kills every worker still running; the shutdown hook calls it too. */
  private void killAll() {
    for (WorkerHandle handle : spawned) {
      handle.close();
    }
  }

  /**
   * A FAULT line; {@code value} and {@code index} (the victim's write the fault was timed on) are
   * optional.
   */
  private void fault(String kind, String target, String value, Long index, String error) {
    Event.Builder line =
        Event.of(Event.Type.FAULT, System.nanoTime()).process(DRIVER).fault(kind).target(target);
    if (value != null) {
      line.value(value);
    }
    if (index != null) {
      line.index(index);
    }
    if (error != null) {
      line.error(error);
    }
    driverEvents.add(line.build());
  }

  private static void sleepUntil(long due) throws InterruptedException {
    long left;
    while ((left = due - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  /**
   * One FINAL line per resource: the registered epoch, the published value (where the target can
   * read) and the lookup of every operation ID written to it.
   */
  private List<Event> finalLines(List<Event> lines) {
    Map<String, Set<String>> written = new TreeMap<>();
    for (int r = 0; r < resources; r++) {
      written.put("r" + r, new TreeSet<>());
    }
    for (Event event : lines) {
      if (event.type() == Event.Type.INVOKE
          && Event.WRITE.equals(event.f())
          && event.resource() != null
          && event.operation() != null) {
        written.computeIfAbsent(event.resource(), r -> new TreeSet<>()).add(event.operation());
      }
    }
    List<Event> finals = new ArrayList<>();
    ChaosTarget target;
    try {
      target = openTarget();
    } catch (RuntimeException e) {
      for (String resource : written.keySet()) {
        finals.add(
            Event.of(Event.Type.FINAL, System.nanoTime())
                .process(DRIVER)
                .resource(resource)
                .error("cannot open the target: " + e.getMessage())
                .build());
      }
      return finals;
    }
    try (target) {
      Destination<?> destination = target.destination();
      boolean canLookup = destination.capabilities().contains(Capability.RESULT_LOOKUP);
      for (Map.Entry<String, Set<String>> entry : written.entrySet()) {
        ResourceId resource = ResourceId.of(entry.getKey());
        Event.Builder line =
            Event.of(Event.Type.FINAL, System.nanoTime()).process(DRIVER).resource(entry.getKey());
        List<String> errors = new ArrayList<>();
        try {
          Epoch epoch = destination.currentEpoch(resource);
          line.epoch(epoch.value());
        } catch (RuntimeException e) {
          errors.add("epoch: " + e.getMessage());
        }
        if (target.canRead()) {
          try {
            Optional<byte[]> payload = target.read(resource);
            payload.ifPresent(bytes -> line.value(ChaosWorker.valueOf(bytes)));
          } catch (RuntimeException e) {
            errors.add("read: " + e.getMessage());
          }
        }
        if (canLookup) {
          Map<String, Event.ReceiptView> lookups = new TreeMap<>();
          for (String operation : entry.getValue()) {
            // A few tries: the store was faulted a moment ago, and a lookup that fails leaves the
            // operation unresolved.
            for (int attempt = 1; ; attempt++) {
              try {
                Optional<Receipt> receipt = destination.lookup(resource, OperationId.of(operation));
                lookups.put(operation, receipt.map(Event.ReceiptView::of).orElse(null));
                break;
              } catch (RuntimeException e) {
                if (attempt >= FINAL_LOOKUP_ATTEMPTS) {
                  errors.add("lookup " + operation + ": " + e.getMessage());
                  break;
                }
                sleepQuietly(Duration.ofMillis(250L * attempt));
              }
            }
          }
          line.lookups(lookups);
        } else if (!entry.getValue().isEmpty()) {
          errors.add("lookup: the destination lacks RESULT_LOOKUP");
        }
        if (!errors.isEmpty()) {
          line.error(String.join("; ", errors));
        }
        finals.add(line.build());
      }
    }
    return finals;
  }

  private static void sleepQuietly(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Validating builder for {@link ChaosRun}. */
  public static final class Builder {
    private Class<? extends ChaosTargetFactory> factory;
    private Map<String, String> settings = Map.of();
    private Duration duration = Duration.ofSeconds(60);
    private int workers = 8;
    private int threads = 1;
    private int resources = 4;
    private Set<String> faults;
    private Long seed;
    private Path out;
    private Duration leaseTtl = Duration.ofSeconds(2);
    private Duration faultEvery = Duration.ofSeconds(1);
    private StoreFaults storeFaults;
    private String classpath;
    private List<String> jvmOptions = List.of();

    private Builder() {}

    /**
     * The target: a {@link ChaosTargetFactory} class (public, with a public no-argument
     * constructor, on the workers' class path) and its settings.
     */
    public Builder target(
        Class<? extends ChaosTargetFactory> factory, Map<String, String> settings) {
      this.factory = requireNonNull(factory, "factory is null");
      this.settings = Map.copyOf(requireNonNull(settings, "settings is null"));
      return this;
    }

    /**
     * The built-in target: destination {@code destination} of the YAML file {@code yaml} ({@link
     * ConfigTargetFactory}); the path is made absolute, relative paths inside the file resolve
     * against the working directory (which the workers share with the driver).
     */
    public Builder config(Path yaml, String destination) {
      requireNonNull(yaml, "yaml is null");
      requireNonNull(destination, "destination is null");
      return target(
          ConfigTargetFactory.class,
          Map.of(
              ConfigTargetFactory.CONFIG,
              yaml.toAbsolutePath().toString(),
              ConfigTargetFactory.DESTINATION,
              destination));
    }

    /** How long the workers run under faults (default 60 s). */
    public Builder duration(Duration duration) {
      this.duration = requireNonNull(duration, "duration is null");
      return this;
    }

    /** How many worker processes run at a time (default 8). */
    public Builder workers(int workers) {
      this.workers = workers;
      return this;
    }

    /**
     * How many loops each worker process runs at once (default 1, at most 16): each is its own
     * process in the history ({@code w3/1}, {@code w3/2} ...) with its own holder name; a pause
     * freezes and a kill ends all loops of the process, as a GC pause or a crash would.
     */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /** How many resources ({@code r0} ...) the workers contend for (default 4). */
    public Builder resources(int resources) {
      this.resources = resources;
      return this;
    }

    /**
     * The fault kinds, a subset of {@code pause}, {@code kill}, {@code store} (default: all three
     * when {@link #storeFaults} is given, else pause and kill); empty for a run without faults.
     */
    public Builder faults(Set<String> kinds) {
      this.faults = Set.copyOf(requireNonNull(kinds, "kinds is null"));
      return this;
    }

    /** The seed of the fault schedule and the workers (default: random, recorded in META). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The output directory (required; created if missing). */
    public Builder out(Path dir) {
      this.out = requireNonNull(dir, "dir is null");
      return this;
    }

    /** The workers' lease ttl (default 2 s). */
    public Builder leaseTtl(Duration ttl) {
      this.leaseTtl = requireNonNull(ttl, "ttl is null");
      return this;
    }

    /** The mean gap between faults (default 1 s). */
    public Builder faultEvery(Duration gap) {
      this.faultEvery = requireNonNull(gap, "gap is null");
      return this;
    }

    /** The store faults, needed when {@code store} is among the faults. */
    public Builder storeFaults(StoreFaults storeFaults) {
      this.storeFaults = requireNonNull(storeFaults, "storeFaults is null");
      return this;
    }

    /** The workers' class path (default: this JVM's {@code java.class.path}). */
    public Builder classpath(String classpath) {
      this.classpath = requireNonNull(classpath, "classpath is null");
      return this;
    }

    /** Extra worker JVM options, after the defaults (so {@code -Xmx512m} overrides -Xmx128m). */
    public Builder jvmOptions(List<String> options) {
      this.jvmOptions = List.copyOf(requireNonNull(options, "options is null"));
      return this;
    }

    private Set<String> effectiveFaults() {
      if (faults != null) {
        return faults;
      }
      return storeFaults != null ? FAULT_KINDS : Set.of(FaultSchedule.PAUSE, FaultSchedule.KILL);
    }

    /**
     * Validates the settings.
     *
     * @throws IllegalArgumentException naming the value and the fix
     */
    public ChaosRun build() {
      if (factory == null) {
        throw new IllegalArgumentException(
            "Cannot build a chaos run: no target (call config(yaml, destination) or"
                + " target(factoryClass, settings))");
      }
      if (out == null) {
        throw new IllegalArgumentException(
            "Cannot build a chaos run: no output directory (call out(Path.of(\"chaos-out\")))");
      }
      if (workers < 1 || workers > 256) {
        throw new IllegalArgumentException(
            "Cannot run " + workers + " workers: use 1 to 256 (e.g. 8)");
      }
      if (threads < 1 || threads > ChaosWorker.MAX_THREADS) {
        throw new IllegalArgumentException(
            "Cannot run "
                + threads
                + " threads per worker: use 1 to "
                + ChaosWorker.MAX_THREADS
                + " (e.g. 4)");
      }
      if (resources < 1 || resources > 10_000) {
        throw new IllegalArgumentException(
            "Cannot use " + resources + " resources: use 1 to 10000 (e.g. 4)");
      }
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException(
            "Cannot run for " + duration + ": the duration must be positive (e.g. PT60S)");
      }
      if (leaseTtl.toMillis() < 100) {
        throw new IllegalArgumentException(
            "Cannot use lease ttl " + leaseTtl + ": use at least 100 ms (e.g. PT2S)");
      }
      if (faultEvery.isNegative() || faultEvery.isZero()) {
        throw new IllegalArgumentException(
            "Cannot inject a fault every " + faultEvery + ": the gap must be positive (e.g. PT1S)");
      }
      Set<String> kinds = effectiveFaults();
      for (String kind : kinds) {
        if (!FAULT_KINDS.contains(kind)) {
          throw new IllegalArgumentException(
              "Cannot inject fault \"" + kind + "\": use pause, kill or store");
        }
      }
      if (kinds.contains(FaultSchedule.STORE)
          && (storeFaults == null || storeFaults.kinds().isEmpty())) {
        throw new IllegalArgumentException(
            "Cannot inject store faults: "
                + (storeFaults == null
                    ? "no StoreFaults was given (call storeFaults(...))"
                    : "the StoreFaults offers no kinds")
                + ", or leave store out of the faults");
      }
      return new ChaosRun(this);
    }
  }
}
