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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.Options.StoreKind;
import dev.fenceline.benchmarks.Row.Operation;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Cost as work grows (issue 24, item 4): one store's pointer publish measured while the store holds
 * more and more resources (control rows, nodes or objects), and while one resource holds more and
 * more versions and receipts (retention off: nothing is pruned). At each size the publish and the
 * store's raw peer (a raw upsert, {@code setData} or {@code PutObject}) run alternately for one
 * {@code --growth-slice}, after half of that as warm-up (twice that before the first size), so that
 * machine noise shows in both; a publish that stays flat keeps the same p50 and the same ratio to
 * the peer at every size.
 *
 * <p>The store is filled between sizes, outside the measurement. A {@link Bulk} population (SQL on
 * the JDBC stores) copies the rows of a resource or a version written through the API; otherwise
 * (ZooKeeper, S3, or when the bulk copy does not match the schema) the population goes through the
 * API: one {@code PointerStore.write} per new resource (a token of the issuer's identity at epoch
 * 1; several threads) and one publish per new version of the measured resource (one thread, under
 * its lease), for at most half the {@code --growth-budget} per dimension. Where the budget runs out
 * the growth stops at the size reached, which the report shows.
 */
final class GrowthRun {

  /** What grows. */
  enum Dimension {
    RESOURCES("resources in the store"),
    VERSIONS("versions and receipts of the measured resource");

    private final String shown;

    Dimension(String shown) {
      this.shown = shown;
    }

    String shown() {
      return shown;
    }
  }

  /** A store that can copy what the API wrote, much faster than the API writes it. */
  interface Bulk {

    /** How, for the report. */
    String describe(Dimension dimension);

    /**
     * Adds the resources {@code namePrefix + i} for {@code i} in {@code [from, to]} as copies of
     * resource {@code template} (written through the API, one version).
     */
    void copyResource(ResourceId template, String namePrefix, long from, long to) throws Exception;

    /**
     * Adds versions {@code [from, to]} of {@code resource} as copies of the version written by
     * {@code template} (its operation IDs get the suffix {@code -<version>}).
     */
    void copyVersions(ResourceId resource, OperationId template, long from, long to)
        throws Exception;
  }

  /** One store's subject of the growth run. */
  record Subject(
      StoreKind store,
      LeaseIssuer issuer,
      PointerStore pointers,
      String peerName,
      Row.Operations peer,
      Optional<Bulk> bulk,
      int populationThreads) {}

  /** The measurement at one size. */
  record Step(
      long target,
      long reached,
      double populateSeconds,
      String population,
      Latencies publish,
      Latencies peer) {}

  /** One store and dimension. */
  record Result(
      StoreKind store,
      Dimension dimension,
      String peerName,
      List<Step> steps,
      List<String> notes) {}

  private static final long BULK_CHUNK = 100_000;

  private final Subject subject;
  private final Duration slice;
  private final Duration budgetPerDimension;
  private final String prefix;
  private final Consumer<String> progress;
  private Optional<Bulk> bulk;

  private GrowthRun(
      Subject subject, Duration slice, Duration budget, String prefix, Consumer<String> progress) {
    this.subject = subject;
    this.slice = slice;
    this.budgetPerDimension = budget.dividedBy(2);
    this.prefix = prefix;
    this.progress = progress;
    this.bulk = subject.bulk();
  }

  /** Runs both dimensions on {@code subject}. */
  static List<Result> run(
      Subject subject,
      List<Long> resources,
      List<Long> versions,
      Duration slice,
      Duration budget,
      String prefix,
      Consumer<String> progress)
      throws Exception {
    GrowthRun run = new GrowthRun(subject, slice, budget, prefix, progress);
    List<Result> results = new ArrayList<>();
    results.add(run.grow(Dimension.RESOURCES, resources));
    results.add(run.grow(Dimension.VERSIONS, versions));
    return results;
  }

  private Result grow(Dimension dimension, List<Long> sizes) throws Exception {
    String label = subject.store().shown() + " growth, " + dimension.shown();
    List<Step> steps = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    ResourceId measured =
        ResourceId.of(
            "bench/" + prefix + "/grow-" + dimension.name().toLowerCase(Locale.ROOT) + "-measured");
    String holder = "bench-growth";
    Lease lease = Publishing.acquire(subject.issuer(), measured, holder, Publishing.LONG_LEASE);
    Operation peer = subject.peer().open(0);
    try {
      FencingToken token = lease.token();
      Publishing.expectRegistered(subject.pointers().register(token), measured);
      long[] published = {0};
      // The first version of the measured resource: the template of the versions' bulk copy.
      OperationId seed = publish(token, measured, published);
      long have = 1; // resources in the store, or versions of the measured resource
      long populating = 0; // nanoseconds spent filling so far: the budget counts only these
      String population = "none needed";
      for (long target : sizes) {
        double seconds = 0;
        if (target > have) {
          progress.accept(
              label + ": filling to " + Options.shownCount(target) + " (" + how(dimension) + ")");
          long begin = System.nanoTime();
          long deadline = begin + budgetPerDimension.toNanos() - populating;
          long reached =
              dimension == Dimension.RESOURCES
                  ? addResources(have, target, deadline, notes)
                  : addVersions(token, measured, seed, have, target, published, deadline, notes);
          populating += System.nanoTime() - begin;
          seconds = (System.nanoTime() - begin) / 1e9;
          population = how(dimension);
          have = reached;
        }
        progress.accept(label + ": measuring at " + Options.shownCount(have));
        long measuredAt = have;
        Latencies publishes = new Latencies();
        Latencies peers = new Latencies();
        // Longer before the first size: the store may have just started (--growth-only).
        Duration warmup = steps.isEmpty() ? slice.multipliedBy(2) : slice.dividedBy(2);
        alternate(token, measured, published, peer, warmup, null, null);
        alternate(token, measured, published, peer, slice, publishes, peers);
        if (dimension == Dimension.VERSIONS) {
          have = currentVersion(measured); // the measured publishes are versions too
        }
        steps.add(new Step(target, measuredAt, seconds, population, publishes, peers));
        if (measuredAt < target) {
          notes.add(
              String.format(
                  Locale.ROOT,
                  "%s: stopped at %s of %s: the population budget (%s per dimension) ran out.",
                  dimension.shown(),
                  Options.shownCount(measuredAt),
                  Options.shownCount(target),
                  budgetPerDimension.toSeconds() + " s"));
          break;
        }
      }
      return new Result(subject.store(), dimension, subject.peerName(), steps, notes);
    } finally {
      peer.close();
      subject.issuer().release(lease);
    }
  }

  private String how(Dimension dimension) {
    if (bulk.isPresent()) {
      return bulk.get().describe(dimension);
    }
    return dimension == Dimension.RESOURCES
        ? "API: one PointerStore.write per resource, " + subject.populationThreads() + " threads"
        : "API: one publish per version, 1 thread";
  }

  /** Publishes the next version of {@code resource}; returns its operation ID. */
  private OperationId publish(FencingToken token, ResourceId resource, long[] published) {
    long n = ++published[0];
    OperationId operation = Publishing.operation(resource, n);
    Publishing.expectApplied(
        subject.pointers().write(token, operation, Pointer.to(Publishing.target(n))));
    return operation;
  }

  /** Publish and peer in turn until {@code duration} has passed; records if the sinks are set. */
  private void alternate(
      FencingToken token,
      ResourceId resource,
      long[] published,
      Operation peer,
      Duration duration,
      Latencies publishes,
      Latencies peers)
      throws Exception {
    long end = System.nanoTime() + duration.toNanos();
    int minimum = publishes == null ? 10 : 20;
    int done = 0;
    while (System.nanoTime() - end < 0 || done < minimum) {
      long begin = System.nanoTime();
      publish(token, resource, published);
      long middle = System.nanoTime();
      peer.run();
      long after = System.nanoTime();
      if (publishes != null) {
        publishes.record(middle - begin);
        peers.record(after - middle);
      }
      done++;
    }
  }

  private long currentVersion(ResourceId resource) {
    return subject
        .pointers()
        .current(resource)
        .map(PointerState::version)
        .orElseThrow(() -> new IllegalStateException("Cannot read the pointer of " + resource));
  }

  /**
   * Population resources are {@code <prefix>/grow-r/<i>}, i from 1; the measured one counts too.
   */
  private String populationPrefix() {
    return "bench/" + prefix + "/grow-r/";
  }

  private long addResources(long have, long target, long deadline, List<String> notes)
      throws Exception {
    String names = populationPrefix();
    if (bulk.isPresent()) {
      try {
        // Resource 1 is written through the API; the others copy its rows.
        long from = have;
        if (have == 1) {
          writeFresh(ResourceId.of(names + 1));
          from = 2;
        }
        for (long start = from; start <= target - 1; start += BULK_CHUNK) {
          long end = Math.min(target - 1, start + BULK_CHUNK - 1);
          bulk.get().copyResource(ResourceId.of(names + 1), names, start, end);
        }
        ResourceId last = ResourceId.of(names + (target - 1));
        if (target > 2 && subject.pointers().current(last).isEmpty()) {
          throw new IllegalStateException(
              "the store does not see the copied resource " + last + " (schema changed?)");
        }
        return target;
      } catch (Exception e) {
        // Continue through the API from what existed before (a resource written twice is fine).
        bulkFailed(e, notes);
      }
    }
    return addResourcesThroughApi(have, target, deadline);
  }

  private void bulkFailed(Exception e, List<String> notes) {
    notes.add(
        "The bulk copy did not fit this store's schema ("
            + e.getMessage()
            + "); populated through the API instead.");
    progress.accept("bulk population failed, using the API: " + e);
    bulk = Optional.empty();
  }

  /**
   * A first write of a fresh resource, with a token of the issuer's identity at epoch 1 (the
   * destination registers it with the write). Already applied is fine: a resource written before a
   * failed bulk copy.
   */
  private void writeFresh(ResourceId resource) {
    FencingToken token = new FencingToken(subject.issuer().id(), resource, Epoch.of(1), "grower");
    WriteOutcome outcome =
        subject
            .pointers()
            .write(token, Publishing.operation(resource, 1), Pointer.to(Publishing.target(1)));
    if (!(outcome instanceof Applied) && !(outcome instanceof AlreadyApplied)) {
      throw new IllegalStateException("Cannot populate " + resource + ": " + outcome);
    }
  }

  private long addResourcesThroughApi(long have, long target, long deadline) throws Exception {
    String names = populationPrefix();
    // Resource i (1-based) exists for i < have; the measured resource is the have-th.
    AtomicLong next = new AtomicLong(have);
    int threads = subject.populationThreads();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(
                () -> {
                  long written = 0;
                  while (System.nanoTime() - deadline < 0) {
                    long i = next.getAndIncrement();
                    if (i > target - 1) {
                      break;
                    }
                    writeFresh(ResourceId.of(names + i));
                    written++;
                  }
                  return written;
                }));
      }
      long written = 0;
      for (Future<Long> future : futures) {
        written += future.get();
      }
      return have + written;
    } finally {
      pool.shutdownNow();
    }
  }

  private long addVersions(
      FencingToken token,
      ResourceId resource,
      OperationId seed,
      long have,
      long target,
      long[] published,
      long deadline,
      List<String> notes)
      throws Exception {
    if (bulk.isPresent()) {
      try {
        long current = currentVersion(resource);
        for (long start = current + 1; start <= target; start += BULK_CHUNK) {
          long end = Math.min(target, start + BULK_CHUNK - 1);
          bulk.get().copyVersions(resource, seed, start, end);
        }
        long now = currentVersion(resource);
        if (now != Math.max(target, current)) {
          throw new IllegalStateException(
              "the store sees version " + now + " of " + resource + ", not " + target);
        }
        return now;
      } catch (Exception e) {
        bulkFailed(e, notes);
      }
    }
    long versions = currentVersion(resource);
    while (versions < target && System.nanoTime() - deadline < 0) {
      publish(token, resource, published);
      versions++;
    }
    return currentVersion(resource);
  }
}
