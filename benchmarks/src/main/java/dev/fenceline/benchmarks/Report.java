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

import dev.fenceline.benchmarks.GrowthRun.Step;
import dev.fenceline.benchmarks.Harness.RowResult;
import dev.fenceline.benchmarks.Options.StoreKind;
import dev.fenceline.benchmarks.StagedPublishBenchmark.SizeResult;
import dev.fenceline.benchmarks.StagedPublishBenchmark.VariantResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Formats the results as markdown: one table per store and thread count, the targets of issue 24,
 * the local staged-publish table, the S3 large-publish table and the growth run.
 */
final class Report {

  /** The results of one store with one thread count. */
  record Group(StoreKind store, int threads, List<RowResult> rows) {
    Optional<RowResult> row(String name) {
      return rows.stream().filter(r -> r.row.name().equals(name)).findFirst();
    }

    boolean requestsCounted() {
      return rows.stream().anyMatch(r -> r.requests >= 0);
    }
  }

  /** Everything a report shows. */
  record Results(
      Map<String, String> header,
      Map<StoreKind, Map<String, String>> settings,
      List<Group> groups,
      List<SizeResult> staged,
      List<S3LargePublishBenchmark.SizeResult> s3Large,
      List<GrowthRun.Result> growth,
      List<String> notes) {}

  /** Where a target's ratio comes from. */
  private enum Source {
    /** A row and its peer in the groups of one store. */
    ROWS,
    /** The S3 large-publish table: staged publish ÷ raw PutObject, at {@code size}. */
    S3_LARGE,
    /** The local staged-publish table: staged publish ÷ copy + SHA-256 + fsync, at {@code size}. */
    LOCAL_STAGED
  }

  /**
   * A target of issue 24: {@code row}'s metric ÷ {@code peer}'s must be at most (latency) or at
   * least (throughput) {@code single} with one thread and {@code multi} with more, if set.
   */
  private record Target(
      String figure,
      Source source,
      List<StoreKind> stores,
      String row,
      String peer,
      long size,
      boolean throughput,
      double single,
      OptionalDouble multi) {

    boolean met(double ratio, int threads) {
      double bound = bound(threads).orElseThrow();
      return throughput ? ratio >= bound : ratio <= bound;
    }

    OptionalDouble bound(int threads) {
      return threads == 1 ? OptionalDouble.of(single) : multi;
    }

    String shownBound(int threads) {
      OptionalDouble bound = bound(threads);
      return bound.isEmpty() ? "–" : (throughput ? "≥ " : "≤ ") + ratio(bound.getAsDouble());
    }
  }

  /** The targets table of issue 24, in its order and words. */
  private static final List<Target> TARGETS =
      List.of(
          rows(
              "PostgreSQL pointer publish p50 / raw upsert p50",
              StoreKind.POSTGRESQL,
              JdbcRows.POINTER_PUBLISH,
              JdbcRows.RAW_UPSERT,
              false,
              1.3,
              OptionalDouble.of(1.56)),
          rows(
              "PostgreSQL fenced write (one-statement change) p50 / raw upsert p50",
              StoreKind.POSTGRESQL,
              JdbcRows.FENCED_WRITE,
              JdbcRows.RAW_UPSERT,
              false,
              1.6,
              OptionalDouble.of(1.92)),
          rows(
              "PostgreSQL acquire+release ops/s / ShedLock lock+unlock ops/s",
              StoreKind.POSTGRESQL,
              JdbcRows.ACQUIRE_RELEASE_ISSUER,
              JdbcRows.SHEDLOCK,
              true,
              1.0,
              OptionalDouble.of(0.8)),
          rows(
              "PostgreSQL acquire+release ops/s / ShedLock lock+unlock ops/s",
              StoreKind.POSTGRESQL,
              JdbcRows.ACQUIRE_RELEASE_FACADE,
              JdbcRows.SHEDLOCK,
              true,
              1.0,
              OptionalDouble.of(0.8)),
          rows(
              "SQLite pointer publish p50 / raw upsert p50",
              StoreKind.SQLITE,
              JdbcRows.POINTER_PUBLISH,
              JdbcRows.RAW_UPSERT,
              false,
              1.6,
              OptionalDouble.empty()),
          rows(
              "ZooKeeper pointer swap p50 / raw `setData` p50",
              StoreKind.ZOOKEEPER,
              ZkRows.POINTER_SWAP,
              ZkRows.RAW_SET_DATA,
              false,
              1.5,
              OptionalDouble.of(1.8)),
          new Target(
              "S3 staged 100 MiB publish / raw `PutObject`",
              Source.S3_LARGE,
              List.of(StoreKind.S3PROXY, StoreKind.S3MOCK),
              S3LargePublishBenchmark.STAGED,
              S3LargePublishBenchmark.RAW_PUT,
              100 * Options.MIB,
              false,
              1.1,
              OptionalDouble.empty()),
          new Target(
              "staged 1 GiB local publish / copy + SHA-256 + fsync",
              Source.LOCAL_STAGED,
              List.of(StoreKind.SQLITE),
              StagedPublishBenchmark.STAGED,
              StagedPublishBenchmark.COPY_SHA_FSYNC,
              Options.GIB,
              false,
              1.1,
              OptionalDouble.empty()));

  private static Target rows(
      String figure,
      StoreKind store,
      String row,
      String peer,
      boolean throughput,
      double single,
      OptionalDouble multi) {
    return new Target(figure, Source.ROWS, List.of(store), row, peer, 0, throughput, single, multi);
  }

  private Report() {}

  static String markdown(Results results) {
    StringBuilder out = new StringBuilder();
    out.append("# Fenceline benchmarks\n\n");
    results
        .header()
        .forEach(
            (key, value) -> out.append("- ").append(key).append(": ").append(value).append('\n'));
    results
        .settings()
        .forEach(
            (store, values) -> {
              out.append("- ").append(store.shown()).append(": ");
              List<String> parts = new ArrayList<>();
              values.forEach((key, value) -> parts.add(key + " " + value));
              out.append(String.join(", ", parts)).append('\n');
            });
    out.append('\n');
    if (!results.groups().isEmpty()) {
      out.append("## Steps and their peers\n\n");
      out.append(
          "ops/s: all threads together over every measured slice (min–max of the rounds in"
              + " brackets). Latencies per operation. vs peer: ops/s ÷ the peer's ops/s (above 1 ="
              + " more throughput) and p50 ÷ the peer's p50 (below 1 = faster). req/op: requests"
              + " the store's client sent per operation (ZooKeeper requests, S3 HTTP requests with"
              + " retries), where it counts them.\n\n");
      for (Group group : results.groups()) {
        appendGroup(out, group);
      }
    }
    if (!results.groups().isEmpty()
        || !results.staged().isEmpty()
        || !results.s3Large().isEmpty()) {
      appendTargets(out, results);
    }
    if (!results.staged().isEmpty()) {
      appendStaged(out, results.staged());
    }
    if (!results.s3Large().isEmpty()) {
      appendS3Large(out, results.s3Large());
    }
    if (!results.growth().isEmpty()) {
      appendGrowth(out, results.growth());
    }
    if (!results.notes().isEmpty()) {
      out.append("## Notes\n\n");
      for (String note : results.notes()) {
        out.append("- ").append(note).append('\n');
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static void appendGroup(StringBuilder out, Group group) {
    boolean counted = group.requestsCounted();
    out.append("### ")
        .append(group.store().shown())
        .append(", ")
        .append(group.threads())
        .append(group.threads() == 1 ? " thread" : " threads")
        .append("\n\n");
    out.append(
        "| row | ops/s (rounds min–max) | p50 ms | p99 ms | peer | ops/s vs peer | p50 vs peer |"
            + (counted ? " req/op |" : "")
            + " errors |\n");
    out.append("|---|---:|---:|---:|---|---:|---:|" + (counted ? "---:|" : "") + "---:|\n");
    for (RowResult row : group.rows()) {
      Optional<RowResult> peer = row.row.peer().flatMap(group::row);
      List<Object> cells =
          new ArrayList<>(
              List.of(
                  row.row.name(),
                  opsPerSecond(row),
                  millis(row.latencies.quantile(0.5)),
                  millis(row.latencies.quantile(0.99)),
                  row.row.peer().orElse("–"),
                  peer.map(p -> ratio(row.opsPerSecond() / p.opsPerSecond())).orElse("–"),
                  peer.map(p -> ratio(row.latencies.quantile(0.5) / p.latencies.quantile(0.5)))
                      .orElse("–")));
      if (counted) {
        cells.add(perOperation(row.requestsPerOperation()));
      }
      cells.add(row.errors);
      appendRow(out, cells.toArray());
    }
    out.append('\n');
    Optional<RowResult> cycle = group.row(JdbcRows.FULL_CYCLE);
    Optional<RowResult> shedLock = group.row(JdbcRows.SHEDLOCK);
    if (cycle.isPresent() && shedLock.isPresent()) {
      out.append("Full cycle vs `")
          .append(JdbcRows.SHEDLOCK)
          .append("`: ops/s ")
          .append(ratio(cycle.get().opsPerSecond() / shedLock.get().opsPerSecond()))
          .append(", p50 ")
          .append(
              ratio(cycle.get().latencies.quantile(0.5) / shedLock.get().latencies.quantile(0.5)))
          .append(".\n\n");
    }
    for (RowResult row : group.rows()) {
      if (row.firstError != null) {
        out.append("First error of `")
            .append(row.row.name())
            .append("`: ")
            .append(row.firstError.replace('\n', ' '))
            .append("\n\n");
      }
    }
  }

  private static void appendTargets(StringBuilder out, Results results) {
    out.append("## Targets\n\n");
    out.append(
        "The targets of issue 24, each ratio measured side by side in this run (rows"
            + " interleaved). The issue's \"8 threads\" bound applies to every thread count above"
            + " 1; \"–\" means the issue sets no target there. vs 1 thread: the ratio ÷ the same"
            + " ratio with 1 thread.\n\n");
    out.append(
        "| figure (issue 24) | store | threads | measured as | ratio | target | met |"
            + " vs 1 thread |\n");
    out.append("|---|---|---:|---|---:|---:|---|---:|\n");
    int checked = 0;
    int missed = 0;
    int notRun = 0;
    for (Target target : TARGETS) {
      for (StoreKind store : target.stores()) {
        List<TargetLine> lines = lines(target, store, results);
        if (lines.isEmpty()) {
          notRun++;
          out.append("| ")
              .append(target.figure())
              .append(" | ")
              .append(store.shown())
              .append(" | – | ")
              .append(measuredAs(target, store))
              .append(" | – | ")
              .append(target.shownBound(1))
              .append(" | not measured in this run | – |\n");
          continue;
        }
        OptionalDouble single =
            lines.stream().filter(l -> l.threads() == 1).mapToDouble(TargetLine::ratio).findFirst();
        for (TargetLine line : lines) {
          boolean bounded = target.bound(line.threads()).isPresent();
          boolean met = bounded && target.met(line.ratio(), line.threads());
          if (bounded) {
            checked++;
            missed += met ? 0 : 1;
          }
          out.append("| ")
              .append(target.figure())
              .append(" | ")
              .append(store.shown())
              .append(" | ")
              .append(line.threads())
              .append(" | ")
              .append(measuredAs(target, store))
              .append(" | ")
              .append(ratio(line.ratio()))
              .append(" | ")
              .append(target.shownBound(line.threads()))
              .append(" | ")
              .append(!bounded ? "–" : met ? "yes" : "**no**")
              .append(" | ")
              .append(
                  line.threads() == 1 || single.isEmpty()
                      ? "–"
                      : percent(line.ratio() / single.getAsDouble() - 1))
              .append(" |\n");
        }
      }
    }
    out.append('\n')
        .append(checked - missed)
        .append(" of ")
        .append(checked)
        .append(" targets met")
        .append(notRun == 0 ? "" : "; " + notRun + " not measured in this run")
        .append(".\n\n");
  }

  private record TargetLine(int threads, double ratio) {}

  private static List<TargetLine> lines(Target target, StoreKind store, Results results) {
    List<TargetLine> lines = new ArrayList<>();
    switch (target.source()) {
      case ROWS -> {
        for (Group group : results.groups()) {
          if (group.store() != store) {
            continue;
          }
          Optional<RowResult> row = group.row(target.row());
          Optional<RowResult> peer = group.row(target.peer());
          if (row.isPresent() && peer.isPresent()) {
            double value =
                target.throughput()
                    ? row.get().opsPerSecond() / peer.get().opsPerSecond()
                    : row.get().latencies.quantile(0.5) / peer.get().latencies.quantile(0.5);
            lines.add(new TargetLine(group.threads(), value));
          }
        }
      }
      case S3_LARGE -> {
        for (S3LargePublishBenchmark.SizeResult size : results.s3Large()) {
          if (size.store() == store && size.size() == target.size()) {
            var row = size.variant(target.row());
            var peer = size.variant(target.peer());
            if (row.isPresent() && peer.isPresent()) {
              lines.add(
                  new TargetLine(
                      1,
                      row.get().latencies().quantile(0.5) / peer.get().latencies().quantile(0.5)));
            }
          }
        }
      }
      case LOCAL_STAGED -> {
        for (SizeResult size : results.staged()) {
          if (size.size() == target.size() && size.skipped().isEmpty()) {
            Optional<VariantResult> row = variant(size, target.row());
            Optional<VariantResult> peer = variant(size, target.peer());
            if (row.isPresent() && peer.isPresent()) {
              lines.add(
                  new TargetLine(
                      1,
                      row.get().latencies().quantile(0.5) / peer.get().latencies().quantile(0.5)));
            }
          }
        }
      }
    }
    return lines;
  }

  private static Optional<VariantResult> variant(SizeResult size, String name) {
    return size.variants().stream().filter(v -> v.name().equals(name)).findFirst();
  }

  private static String measuredAs(Target target, StoreKind store) {
    String metric = target.throughput() ? "ops/s" : "p50";
    return switch (target.source()) {
      case ROWS -> "`" + target.row() + "` ÷ `" + target.peer() + "`, " + metric;
      case S3_LARGE ->
          Options.shownSize(target.size())
              + ": `"
              + target.row()
              + "` ÷ `"
              + target.peer()
              + "`, p50";
      case LOCAL_STAGED ->
          Options.shownSize(target.size())
              + ": `"
              + target.row()
              + "` ÷ `"
              + target.peer()
              + "`, p50";
    };
  }

  private static void appendStaged(StringBuilder out, List<SizeResult> staged) {
    out.append("## Staged publish vs copying the file\n\n");
    out.append(
        "One thread. Staged publish: stream to a new staging key in a local `VfsBlobStore`"
            + " (SHA-256 on the way, then fsync of the file and its directory), then the fenced"
            + " pointer swap in a `JdbcPointerStore` on the SQLite file. The raw copies stream the"
            + " same source file into the same directory; `+ fsync` forces the file and the"
            + " directory as `VfsBlobStore.put` does, so it is the peer that is as durable;"
            + " `+ SHA-256 + fsync` also computes the checksum staging computes: the same work,"
            + " and the peer of the issue's 1 GiB target."
            + (StagedPublishBenchmark.syncAvailable()
                ? " Before each operation (outside the timing) `sync` writes out what earlier copies"
                    + " left in the page cache."
                : " `sync` could not be run: dirty pages of earlier copies may be flushed during"
                    + " later measurements.")
            + "\n\n");
    out.append(
        "| payload | variant | publishes | p50 ms | mean ms | MiB/s (mean) | p50 vs copy + SHA-256 +"
            + " fsync | p50 vs raw copy + fsync | p50 vs raw copy |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (SizeResult size : staged) {
      if (size.skipped().isPresent()) {
        out.append("| ")
            .append(Options.shownSize(size.size()))
            .append(" | skipped: ")
            .append(size.skipped().get())
            .append(" | | | | | | | |\n");
        continue;
      }
      Map<String, VariantResult> byName = new LinkedHashMap<>();
      size.variants().forEach(v -> byName.put(v.name(), v));
      double samePeer = byName.get(StagedPublishBenchmark.COPY_SHA_FSYNC).latencies().quantile(0.5);
      double durablePeer = byName.get(StagedPublishBenchmark.COPY_FSYNC).latencies().quantile(0.5);
      double plainPeer = byName.get(StagedPublishBenchmark.COPY).latencies().quantile(0.5);
      for (VariantResult variant : size.variants()) {
        Latencies latencies = variant.latencies();
        double mean = latencies.mean();
        appendRow(
            out,
            Options.shownSize(size.size()),
            variant.name(),
            latencies.count(),
            millis(latencies.quantile(0.5)),
            millis(mean),
            mibPerSecond(size.size(), mean),
            ratio(latencies.quantile(0.5) / samePeer),
            ratio(latencies.quantile(0.5) / durablePeer),
            ratio(latencies.quantile(0.5) / plainPeer));
      }
    }
    out.append('\n');
  }

  /** Appends one markdown table row of {@code cells}. */
  private static void appendRow(StringBuilder out, Object... cells) {
    out.append("| ");
    for (int i = 0; i < cells.length; i++) {
      out.append(i == 0 ? "" : " | ").append(cells[i]);
    }
    out.append(" |\n");
  }

  private static void appendS3Large(
      StringBuilder out, List<S3LargePublishBenchmark.SizeResult> results) {
    out.append("## S3: large staged publish vs PutObject\n\n");
    out.append(
        "One thread. Staged publish: `StagedDestination.write` over the `S3Store`'s blob store"
            + " and an S3 pointer store (stream to a new staging key, multipart above 16 MiB in"
            + " 8 MiB parts, create-only; then the fenced pointer swap). Raw PutObject: one"
            + " `PutObject` of the same file (`RequestBody.fromFile`) to one key, overwritten each"
            + " time. Blob put only: the blob store's upload alone (diagnostic). req: HTTP requests"
            + " per publish.\n\n");
    out.append(
        "| store | payload | variant | publishes | p50 ms | mean ms | MiB/s (mean) | req | p50 vs"
            + " raw PutObject |\n");
    out.append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (S3LargePublishBenchmark.SizeResult size : results) {
      double peer =
          size.variant(S3LargePublishBenchmark.RAW_PUT)
              .map(v -> v.latencies().quantile(0.5))
              .orElse(Double.NaN);
      for (S3LargePublishBenchmark.Variant variant : size.variants()) {
        Latencies latencies = variant.latencies();
        appendRow(
            out,
            size.store().shown(),
            Options.shownSize(size.size()),
            variant.name(),
            latencies.count(),
            millis(latencies.quantile(0.5)),
            millis(latencies.mean()),
            mibPerSecond(size.size(), latencies.mean()),
            perOperation(variant.requestsPerOperation()),
            ratio(latencies.quantile(0.5) / peer));
      }
    }
    out.append('\n');
  }

  private static void appendGrowth(StringBuilder out, List<GrowthRun.Result> results) {
    out.append("## Cost as work grows\n\n");
    out.append(
        "One thread. At each size the store's pointer publish (`PointerStore.write` to the"
            + " measured resource, a new operation ID each time, under a lease) and the store's raw"
            + " peer run alternately; the size is what the store held when the measurement began."
            + " Flat means the same p50 and the same ratio to the peer at every size. The versions"
            + " run follows the resources run on the same store, so the store also holds the"
            + " resources. The store is filled between sizes (filled in: how long that took, not"
            + " part of any publish), as the line below each table says.\n\n");
    for (GrowthRun.Result result : results) {
      out.append("### ")
          .append(result.store().shown())
          .append(": ")
          .append(result.dimension().shown())
          .append("\n\n");
      out.append(
          "| size | publishes | publish p50 ms | p99 ms | "
              + result.peerName()
              + " p50 ms | publish ÷ peer | p50 vs first size | filled in |\n");
      out.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      double first = Double.NaN;
      for (Step step : result.steps()) {
        double p50 = step.publish().quantile(0.5);
        if (Double.isNaN(first)) {
          first = p50;
        }
        out.append("| ")
            .append(Options.shownCount(step.reached()))
            .append(
                step.reached() < step.target()
                    ? " (of " + Options.shownCount(step.target()) + ")"
                    : "")
            .append(" | ")
            .append(step.publish().count())
            .append(" | ")
            .append(millis(p50))
            .append(" | ")
            .append(millis(step.publish().quantile(0.99)))
            .append(" | ")
            .append(millis(step.peer().quantile(0.5)))
            .append(" | ")
            .append(ratio(p50 / step.peer().quantile(0.5)))
            .append(" | ")
            .append(ratio(p50 / first))
            .append(" | ")
            .append(
                step.populateSeconds() == 0
                    ? "–"
                    : String.format(Locale.ROOT, "%.1f s", step.populateSeconds()))
            .append(" |\n");
      }
      out.append('\n');
      result.steps().stream()
          .filter(step -> step.populateSeconds() > 0)
          .map(Step::population)
          .distinct()
          .forEach(how -> out.append("Filled by ").append(how).append(".\n\n"));
      for (String note : result.notes()) {
        out.append(note).append("\n\n");
      }
    }
  }

  private static String opsPerSecond(RowResult row) {
    double min = row.roundOpsPerSecond.stream().mapToDouble(d -> d).min().orElse(Double.NaN);
    double max = row.roundOpsPerSecond.stream().mapToDouble(d -> d).max().orElse(Double.NaN);
    return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", row.opsPerSecond(), min, max);
  }

  private static String mibPerSecond(long bytes, double meanNanos) {
    return String.format(Locale.ROOT, "%.0f", (bytes / (double) Options.MIB) / (meanNanos / 1e9));
  }

  private static String perOperation(double value) {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.2f", value);
  }

  static String millis(double nanos) {
    if (Double.isNaN(nanos)) {
      return "–";
    }
    double millis = nanos / 1e6;
    return String.format(
        Locale.ROOT, millis >= 100 ? "%.0f" : millis >= 10 ? "%.1f" : "%.3f", millis);
  }

  static String ratio(double value) {
    return Double.isNaN(value) || Double.isInfinite(value)
        ? "–"
        : String.format(Locale.ROOT, "%.2f×", value);
  }

  private static String percent(double value) {
    return String.format(Locale.ROOT, "%+.0f %%", value * 100);
  }
}
