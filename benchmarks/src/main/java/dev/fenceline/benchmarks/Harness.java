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

import dev.fenceline.benchmarks.Row.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs the rows of one group (one database, one thread count): a warm-up slice per row (discarded),
 * then {@code rounds} rounds in which every row runs for one slice, the order rotated by one each
 * round so that machine noise (a neighbour's burst, a checkpoint, the page cache flushing) falls on
 * all rows alike. In a slice every worker thread repeats its operation until the slice's deadline;
 * each operation's latency is recorded exactly. Where the store's client counts its requests (S3's
 * HTTP requests, ZooKeeper's requests), the count before and after each measured slice gives the
 * requests per operation; only one row runs at a time, so the difference is that row's.
 */
final class Harness implements AutoCloseable {

  /** A worker that fails this often in one slice stops for the rest of it (the row is broken). */
  private static final int MAX_ERRORS_PER_SLICE = 100;

  private final int threads;
  private final ExecutorService workers;

  Harness(int threads) {
    this.threads = threads;
    this.workers =
        Executors.newFixedThreadPool(
            threads,
            runnable -> {
              Thread thread = new Thread(runnable, "bench-worker");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** The measured results of one row in one group. */
  static final class RowResult {
    final Row row;
    final Latencies latencies = new Latencies();
    final List<Double> roundOpsPerSecond = new ArrayList<>();
    long operations;
    long nanos;
    long errors;
    String firstError;

    /** Requests sent during the measured slices, or -1 if the store's client does not count. */
    long requests = -1;

    RowResult(Row row) {
      this.row = row;
    }

    /** Operations per second over all measured slices (all threads together). */
    double opsPerSecond() {
      return nanos == 0 ? Double.NaN : operations / (nanos / 1e9);
    }

    /** Requests per operation, NaN if not counted. */
    double requestsPerOperation() {
      return requests < 0 || operations == 0 ? Double.NaN : requests / (double) operations;
    }
  }

  /** Runs the group and returns one result per row, in the rows' order. */
  List<RowResult> run(
      List<Row> rows, Duration warmup, int rounds, Duration slice, Consumer<String> progress)
      throws Exception {
    return run(rows, warmup, rounds, slice, null, progress);
  }

  /**
   * Runs the group as {@link #run(List, Duration, int, Duration, Consumer)} does and, if {@code
   * requests} is not null, records how many requests (a running total it returns) each row sent.
   */
  List<RowResult> run(
      List<Row> rows,
      Duration warmup,
      int rounds,
      Duration slice,
      LongSupplier requests,
      Consumer<String> progress)
      throws Exception {
    List<RowResult> results = new ArrayList<>();
    List<List<Operation>> operations = new ArrayList<>();
    try {
      for (Row row : rows) {
        results.add(new RowResult(row));
        List<Operation> perThread = new ArrayList<>();
        operations.add(perThread);
        for (int thread = 0; thread < threads; thread++) {
          perThread.add(row.operations().open(thread));
        }
      }
      for (int i = 0; i < rows.size(); i++) {
        runSlice(operations.get(i), warmup, null, null);
      }
      for (int round = 0; round < rounds; round++) {
        progress.accept("round " + (round + 1) + "/" + rounds);
        for (int k = 0; k < rows.size(); k++) {
          int i = (k + round) % rows.size();
          runSlice(operations.get(i), slice, results.get(i), requests);
        }
      }
      return results;
    } finally {
      for (List<Operation> perThread : operations) {
        for (Operation operation : perThread) {
          try {
            operation.close();
          } catch (Exception e) {
            System.err.println("Cannot clean up after a row: " + e);
          }
        }
      }
    }
  }

  private record ThreadSlice(
      Latencies latencies, long operations, long errors, String firstError, long endNanos) {}

  /** Runs one slice on every worker thread; records into {@code result} unless it is null. */
  private void runSlice(
      List<Operation> perThread, Duration slice, RowResult result, LongSupplier requests)
      throws InterruptedException, ExecutionException {
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    long[] deadline = new long[1]; // written before go opens, read after: the latch orders them
    List<Future<ThreadSlice>> futures = new ArrayList<>();
    for (Operation operation : perThread) {
      futures.add(
          workers.submit(
              () -> {
                ready.countDown();
                go.await();
                return repeat(operation, deadline[0]);
              }));
    }
    if (!ready.await(1, TimeUnit.MINUTES)) {
      throw new IllegalStateException("Cannot start a slice: the worker threads did not start");
    }
    long requestsBefore = requests == null ? 0 : requests.getAsLong();
    long start = System.nanoTime();
    deadline[0] = start + slice.toNanos();
    go.countDown();
    long end = start;
    List<ThreadSlice> slices = new ArrayList<>();
    for (Future<ThreadSlice> future : futures) {
      ThreadSlice done = future.get();
      slices.add(done);
      end = Math.max(end, done.endNanos());
    }
    long requestsAfter = requests == null ? 0 : requests.getAsLong();
    if (result == null) {
      return;
    }
    if (requests != null) {
      result.requests = Math.max(result.requests, 0) + (requestsAfter - requestsBefore);
    }
    long operations = 0;
    for (ThreadSlice done : slices) {
      result.latencies.addAll(done.latencies());
      operations += done.operations();
      result.errors += done.errors();
      if (result.firstError == null) {
        result.firstError = done.firstError();
      }
    }
    long nanos = end - start;
    result.operations += operations;
    result.nanos += nanos;
    result.roundOpsPerSecond.add(operations / (nanos / 1e9));
  }

  private static ThreadSlice repeat(Operation operation, long deadline) {
    Latencies latencies = new Latencies();
    long operations = 0;
    long errors = 0;
    String firstError = null;
    while (true) {
      long begin = System.nanoTime();
      if (begin - deadline >= 0) {
        break;
      }
      try {
        operation.run();
        latencies.record(System.nanoTime() - begin);
        operations++;
      } catch (Exception e) {
        errors++;
        if (firstError == null) {
          firstError = e.toString();
        }
        if (errors >= MAX_ERRORS_PER_SLICE) {
          break;
        }
      }
    }
    return new ThreadSlice(latencies, operations, errors, firstError, System.nanoTime());
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }
}
