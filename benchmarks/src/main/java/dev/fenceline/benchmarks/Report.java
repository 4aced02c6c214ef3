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

import dev.fenceline.benchmarks.Harness.RowResult;
import dev.fenceline.benchmarks.Options.DatabaseKind;
import dev.fenceline.benchmarks.StagedPublishBenchmark.SizeResult;
import dev.fenceline.benchmarks.StagedPublishBenchmark.VariantResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Formats the results as markdown: one table per database and thread count, targets, staging. */
final class Report {

  /** The results of one database with one thread count. */
  record Group(DatabaseKind database, int threads, List<RowResult> rows) {
    Optional<RowResult> row(String name) {
      return rows.stream().filter(r -> r.row.name().equals(name)).findFirst();
    }
  }

  /** A ratio target: {@code row}'s metric divided by {@code peer}'s. */
  private record Target(
      String row, String peer, boolean throughput, double bound, String description) {

    /** Throughput targets are lower bounds, latency targets upper bounds. */
    boolean met(double ratio, double tolerance) {
      return throughput ? ratio >= bound * (1 - tolerance) : ratio <= bound * (1 + tolerance);
    }

    String shownBound(double tolerance) {
      double value = throughput ? bound * (1 - tolerance) : bound * (1 + tolerance);
      return (throughput ? "≥ " : "≤ ") + ratio(value);
    }
  }

  private static final List<Target> TARGETS =
      List.of(
          new Target(
              JdbcRows.POINTER_PUBLISH,
              JdbcRows.RAW_UPSERT,
              false,
              1.3,
              "pointer publish p50 / raw upsert p50"),
          new Target(
              JdbcRows.FENCED_WRITE,
              JdbcRows.RAW_UPSERT,
              false,
              1.6,
              "fenced write p50 / raw upsert p50"),
          new Target(
              JdbcRows.ACQUIRE_RELEASE_ISSUER,
              JdbcRows.SHEDLOCK,
              true,
              1.0,
              "acquire+release (issuer) ops/s / shedlock lock+unlock ops/s"),
          new Target(
              JdbcRows.ACQUIRE_RELEASE_FACADE,
              JdbcRows.SHEDLOCK,
              true,
              1.0,
              "acquire+release (facade) ops/s / shedlock lock+unlock ops/s"));

  /** With more than one thread, a target may be missed by this much (20 %). */
  static final double MULTI_THREAD_TOLERANCE = 0.2;

  private Report() {}

  static String markdown(
      Map<String, String> header,
      Map<DatabaseKind, Map<String, String>> settings,
      List<Group> groups,
      List<SizeResult> staged,
      List<String> notes) {
    StringBuilder out = new StringBuilder();
    out.append("# Fenceline benchmarks\n\n");
    header.forEach(
        (key, value) -> out.append("- ").append(key).append(": ").append(value).append('\n'));
    settings.forEach(
        (database, values) -> {
          out.append("- ").append(database.shown()).append(": ");
          List<String> parts = new ArrayList<>();
          values.forEach((key, value) -> parts.add(key + " " + value));
          out.append(String.join(", ", parts)).append('\n');
        });
    out.append('\n');
    if (!groups.isEmpty()) {
      out.append("## JDBC steps and their peers\n\n");
      out.append(
          "ops/s: all threads together over every measured slice (min–max of the rounds in"
              + " brackets). Latencies per operation. vs peer: ops/s ÷ the peer's ops/s (above 1 ="
              + " more throughput) and p50 ÷ the peer's p50 (below 1 = faster).\n\n");
      for (Group group : groups) {
        appendGroup(out, group);
      }
      appendTargets(out, groups);
    }
    if (!staged.isEmpty()) {
      appendStaged(out, staged);
    }
    if (!notes.isEmpty()) {
      out.append("## Notes\n\n");
      for (String note : notes) {
        out.append("- ").append(note).append('\n');
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static void appendGroup(StringBuilder out, Group group) {
    out.append("### ")
        .append(group.database().shown())
        .append(", ")
        .append(group.threads())
        .append(group.threads() == 1 ? " thread" : " threads")
        .append("\n\n");
    out.append(
        "| row | ops/s (rounds min–max) | p50 ms | p99 ms | peer | ops/s vs peer | p50 vs peer |"
            + " errors |\n");
    out.append("|---|---:|---:|---:|---|---:|---:|---:|\n");
    for (RowResult row : group.rows()) {
      Optional<RowResult> peer = row.row.peer().flatMap(group::row);
      out.append("| ")
          .append(row.row.name())
          .append(" | ")
          .append(opsPerSecond(row))
          .append(" | ")
          .append(millis(row.latencies.quantile(0.5)))
          .append(" | ")
          .append(millis(row.latencies.quantile(0.99)))
          .append(" | ")
          .append(row.row.peer().orElse("–"))
          .append(" | ")
          .append(peer.map(p -> ratio(row.opsPerSecond() / p.opsPerSecond())).orElse("–"))
          .append(" | ")
          .append(
              peer.map(p -> ratio(row.latencies.quantile(0.5) / p.latencies.quantile(0.5)))
                  .orElse("–"))
          .append(" | ")
          .append(row.errors)
          .append(" |\n");
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

  private static void appendTargets(StringBuilder out, List<Group> groups) {
    out.append("## Targets\n\n");
    out.append(
        "With 1 thread the ratio must meet the target; with more threads it may miss it by at"
            + " most 20 % (a p50 bound × 1.2, a throughput bound × 0.8). Drift: the ratio with N"
            + " threads ÷ the ratio with 1 thread of the same database.\n\n");
    out.append("| database | threads | check | ratio | target | met | drift vs 1 thread |\n");
    out.append("|---|---:|---|---:|---:|---|---:|\n");
    int missed = 0;
    int checked = 0;
    for (Group group : groups) {
      double tolerance = group.threads() == 1 ? 0 : MULTI_THREAD_TOLERANCE;
      Optional<Group> single =
          groups.stream()
              .filter(g -> g.database() == group.database() && g.threads() == 1)
              .findFirst();
      for (Target target : TARGETS) {
        Optional<Double> value = ratio(group, target);
        if (value.isEmpty()) {
          continue;
        }
        boolean met = target.met(value.get(), tolerance);
        checked++;
        missed += met ? 0 : 1;
        String drift =
            group.threads() == 1
                ? "–"
                : single
                    .flatMap(s -> ratio(s, target))
                    .map(base -> percent(value.get() / base - 1))
                    .orElse("–");
        out.append("| ")
            .append(group.database().shown())
            .append(" | ")
            .append(group.threads())
            .append(" | ")
            .append(target.description())
            .append(" | ")
            .append(ratio(value.get()))
            .append(" | ")
            .append(target.shownBound(tolerance))
            .append(" | ")
            .append(met ? "yes" : "**no**")
            .append(" | ")
            .append(drift)
            .append(" |\n");
      }
    }
    out.append('\n')
        .append(checked - missed)
        .append(" of ")
        .append(checked)
        .append(" targets met.\n\n");
  }

  private static Optional<Double> ratio(Group group, Target target) {
    Optional<RowResult> row = group.row(target.row());
    Optional<RowResult> peer = group.row(target.peer());
    if (row.isEmpty() || peer.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        target.throughput()
            ? row.get().opsPerSecond() / peer.get().opsPerSecond()
            : row.get().latencies.quantile(0.5) / peer.get().latencies.quantile(0.5));
  }

  private static void appendStaged(StringBuilder out, List<SizeResult> staged) {
    out.append("## Staged publish vs copying the file\n\n");
    out.append(
        "One thread. Staged publish: stream to a new staging key in a local `VfsBlobStore`"
            + " (SHA-256 on the way, then fsync of the file and its directory), then the fenced"
            + " pointer swap in a `JdbcPointerStore` on the SQLite file. The raw copies stream the"
            + " same source file into the same directory; `+ fsync` forces the file and the"
            + " directory as `VfsBlobStore.put` does, so it is the peer that is as durable."
            + (StagedPublishBenchmark.syncAvailable()
                ? " Before each operation (outside the timing) `sync` writes out what earlier copies"
                    + " left in the page cache."
                : " `sync` could not be run: dirty pages of earlier copies may be flushed during"
                    + " later measurements.")
            + "\n\n");
    out.append(
        "| payload | variant | publishes | p50 ms | mean ms | MiB/s (mean) | p50 vs raw copy +"
            + " fsync | p50 vs raw copy |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (SizeResult size : staged) {
      if (size.skipped().isPresent()) {
        out.append("| ")
            .append(Options.shownSize(size.size()))
            .append(" | skipped: ")
            .append(size.skipped().get())
            .append(" | | | | | | |\n");
        continue;
      }
      Map<String, VariantResult> byName = new LinkedHashMap<>();
      size.variants().forEach(v -> byName.put(v.name(), v));
      double durablePeer = byName.get(StagedPublishBenchmark.COPY_FSYNC).latencies().quantile(0.5);
      double plainPeer = byName.get(StagedPublishBenchmark.COPY).latencies().quantile(0.5);
      for (VariantResult variant : size.variants()) {
        Latencies latencies = variant.latencies();
        double mean = latencies.mean();
        out.append("| ")
            .append(Options.shownSize(size.size()))
            .append(" | ")
            .append(variant.name())
            .append(" | ")
            .append(latencies.count())
            .append(" | ")
            .append(millis(latencies.quantile(0.5)))
            .append(" | ")
            .append(millis(mean))
            .append(" | ")
            .append(
                String.format(
                    Locale.ROOT, "%.0f", (size.size() / (double) Options.MIB) / (mean / 1e9)))
            .append(" | ")
            .append(ratio(latencies.quantile(0.5) / durablePeer))
            .append(" | ")
            .append(ratio(latencies.quantile(0.5) / plainPeer))
            .append(" |\n");
      }
    }
    out.append('\n');
  }

  private static String opsPerSecond(RowResult row) {
    double min = row.roundOpsPerSecond.stream().mapToDouble(d -> d).min().orElse(Double.NaN);
    double max = row.roundOpsPerSecond.stream().mapToDouble(d -> d).max().orElse(Double.NaN);
    return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", row.opsPerSecond(), min, max);
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
