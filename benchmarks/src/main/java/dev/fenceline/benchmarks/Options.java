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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The command line of the harness ({@code benchmarks/run --help}). Every option has a default for
 * the full run; {@code --quick} swaps in short ones for smoke testing.
 */
record Options(
    boolean quick,
    Path out,
    List<StoreKind> stores,
    List<Integer> threads,
    Duration warmup,
    int rounds,
    Duration slice,
    List<Long> stagedSizes,
    boolean stagedSizesGiven,
    int stagedRounds,
    List<Long> s3Sizes,
    boolean growth,
    boolean growthOnly,
    List<Long> growthResources,
    List<Long> growthVersions,
    Duration growthSlice,
    Duration growthBudget,
    Optional<Path> workDirectory,
    boolean help) {

  static final long MIB = 1024L * 1024;
  static final long GIB = 1024L * MIB;

  /** The stores the harness can run on, in the order it runs them. */
  enum StoreKind {
    POSTGRESQL("PostgreSQL", "postgresql"),
    SQLITE("SQLite", "sqlite"),
    ZOOKEEPER("ZooKeeper", "zookeeper"),
    S3PROXY("S3Proxy 4.1.0", "s3proxy"),
    S3MOCK("S3Mock 4.8.0", "s3mock");

    private final String shown;
    private final String option;

    StoreKind(String shown, String option) {
      this.shown = shown;
      this.option = option;
    }

    String shown() {
      return shown;
    }

    /** The name {@code --stores} takes. */
    String option() {
      return option;
    }

    boolean database() {
      return this == POSTGRESQL || this == SQLITE;
    }

    boolean s3() {
      return this == S3PROXY || this == S3MOCK;
    }
  }

  static final String USAGE =
      """
      Usage: benchmarks/run [options]

        --quick                  short run for smoke testing (< 3 min): 2 rounds of 0.3 s slices,
                                 staged publish of 1 MiB only, S3 large publish of 20 MiB, small
                                 growth sizes
        --out FILE               markdown report (default benchmarks/results/latest.md)
        --stores LIST            postgresql,sqlite,zookeeper,s3proxy,s3mock (default all);
                                 --databases is the same option
        --threads LIST           thread counts, e.g. 1,8 (default 1,8)
        --rounds N               measured rounds per store x threads (default 10; quick 2)
        --slice DURATION         time each row runs per round, e.g. 2s, 500ms (default 1s; quick 300ms)
        --warmup DURATION        warm-up slice per row, discarded (default 1s; quick 200ms)
        --staged-sizes LIST      payloads of the local staged-publish table, e.g. 1MiB,1GiB, or none
                                 (default 1MiB,1GiB; quick 1MiB)
        --staged-rounds N        rounds of the local and the S3 large-publish tables (default 5;
                                 quick 2)
        --s3-sizes LIST          payloads of the S3 large-publish table, e.g. 100MiB, or none
                                 (default 100MiB; quick 20MiB)
        --growth / --no-growth   the cost-as-work-grows run (default on, small sizes with --quick)
        --growth-only            only the growth run: no row tables, no staged or S3 large publish
        --growth-resources LIST  resource counts it grows through (default 1,100,1000,10000,100000;
                                 quick 1,1000)
        --growth-versions LIST   versions of one resource it grows through (default
                                 1,1000,10000,100000,1000000; quick 1,10000)
        --growth-slice DURATION  publishes measured at each size (default 2s; quick 300ms)
        --growth-budget DURATION time per store for populating through the API where SQL cannot
                                 (ZooKeeper, S3): larger sizes that would not fit are skipped
                                 (default 150s; quick 15s)
        --work-dir DIR           where the servers' data, the SQLite file and the staged files go
                                 (default: a new temporary directory, deleted afterwards)
        --help                   this text
      """;

  static Options parse(String[] args) {
    boolean quick = false;
    for (String arg : args) {
      if (arg.equals("--quick")) {
        quick = true;
      }
    }
    // benchmarks/run passes the checkout's root, so the default report lands in it wherever the
    // script was started from.
    Path out =
        Path.of(System.getProperty("fenceline.bench.root", "."))
            .resolve(Path.of("benchmarks", "results", "latest.md"));
    List<StoreKind> stores = List.of(StoreKind.values());
    List<Integer> threads = List.of(1, 8);
    Duration warmup = quick ? Duration.ofMillis(200) : Duration.ofSeconds(1);
    int rounds = quick ? 2 : 10;
    Duration slice = quick ? Duration.ofMillis(300) : Duration.ofSeconds(1);
    List<Long> stagedSizes = quick ? List.of(MIB) : List.of(MIB, GIB);
    boolean stagedSizesGiven = false;
    int stagedRounds = quick ? 2 : 5;
    List<Long> s3Sizes = quick ? List.of(20 * MIB) : List.of(100 * MIB);
    boolean growth = true;
    boolean growthOnly = false;
    List<Long> growthResources =
        quick ? List.of(1L, 1_000L) : List.of(1L, 100L, 1_000L, 10_000L, 100_000L);
    List<Long> growthVersions =
        quick ? List.of(1L, 10_000L) : List.of(1L, 1_000L, 10_000L, 100_000L, 1_000_000L);
    Duration growthSlice = quick ? Duration.ofMillis(300) : Duration.ofSeconds(2);
    Duration growthBudget = quick ? Duration.ofSeconds(15) : Duration.ofSeconds(150);
    Optional<Path> workDirectory = Optional.empty();
    boolean help = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--quick" -> {}
        case "--help", "-h" -> help = true;
        case "--out" -> out = Path.of(value(args, ++i, arg));
        case "--stores", "--databases" -> stores = stores(arg, value(args, ++i, arg));
        case "--threads" -> threads = threads(value(args, ++i, arg));
        case "--rounds" -> rounds = positive(arg, value(args, ++i, arg));
        case "--slice" -> slice = duration(arg, value(args, ++i, arg));
        case "--warmup" -> warmup = duration(arg, value(args, ++i, arg));
        case "--staged-sizes" -> {
          stagedSizes = sizes(arg, value(args, ++i, arg));
          stagedSizesGiven = true;
        }
        case "--staged-rounds" -> stagedRounds = positive(arg, value(args, ++i, arg));
        case "--s3-sizes" -> s3Sizes = sizes(arg, value(args, ++i, arg));
        case "--growth" -> growth = true;
        case "--no-growth" -> growth = false;
        case "--growth-only" -> growthOnly = true;
        case "--growth-resources" -> growthResources = counts(arg, value(args, ++i, arg));
        case "--growth-versions" -> growthVersions = counts(arg, value(args, ++i, arg));
        case "--growth-slice" -> growthSlice = duration(arg, value(args, ++i, arg));
        case "--growth-budget" -> growthBudget = duration(arg, value(args, ++i, arg));
        case "--work-dir" -> workDirectory = Optional.of(Path.of(value(args, ++i, arg)));
        default ->
            throw new IllegalArgumentException(
                "Cannot run the benchmarks: unknown option \"" + arg + "\" (see --help)");
      }
    }
    return new Options(
        quick,
        out,
        stores,
        threads,
        warmup,
        rounds,
        slice,
        stagedSizes,
        stagedSizesGiven,
        stagedRounds,
        s3Sizes,
        growth || growthOnly,
        growthOnly,
        growthResources,
        growthVersions,
        growthSlice,
        growthBudget,
        workDirectory,
        help);
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(
          "Cannot run the benchmarks: option " + option + " needs a value (see --help)");
    }
    return args[index];
  }

  private static List<StoreKind> stores(String option, String list) {
    LinkedHashSet<StoreKind> kinds = new LinkedHashSet<>();
    for (String name : list.split(",")) {
      String lower = name.trim().toLowerCase(Locale.ROOT);
      StoreKind kind =
          switch (lower) {
            case "postgresql", "postgres", "pg" -> StoreKind.POSTGRESQL;
            case "sqlite" -> StoreKind.SQLITE;
            case "zookeeper", "zk" -> StoreKind.ZOOKEEPER;
            case "s3proxy" -> StoreKind.S3PROXY;
            case "s3mock" -> StoreKind.S3MOCK;
            default ->
                throw new IllegalArgumentException(
                    "Cannot run the benchmarks: unknown store \""
                        + name
                        + "\" in "
                        + option
                        + " (use any of postgresql,sqlite,zookeeper,s3proxy,s3mock)");
          };
      kinds.add(kind);
    }
    // Always in the declared order, so reports of different runs line up.
    return List.of(StoreKind.values()).stream().filter(kinds::contains).toList();
  }

  private static List<Integer> threads(String list) {
    List<Integer> counts = new ArrayList<>();
    for (String count : list.split(",")) {
      int value = positive("--threads", count.trim());
      if (value > 64) {
        throw new IllegalArgumentException(
            "Cannot run the benchmarks: --threads " + value + " is above 64 (e.g. --threads 1,8)");
      }
      if (!counts.contains(value)) {
        counts.add(value);
      }
    }
    return List.copyOf(counts);
  }

  /** Ascending counts such as {@code 1,1000,100000} (1,000 and 1_000 are read too). */
  private static List<Long> counts(String option, String list) {
    List<Long> counts = new ArrayList<>();
    for (String count : list.split(",")) {
      String digits = count.trim().replace("_", "");
      long value;
      try {
        value = Long.parseLong(digits);
      } catch (NumberFormatException e) {
        value = 0;
      }
      if (value < 1 || value > 10_000_000) {
        throw new IllegalArgumentException(
            "Cannot run the benchmarks: "
                + option
                + " \""
                + count
                + "\" is not a count from 1 to 10000000 (e.g. 1,1000,100000)");
      }
      if (!counts.contains(value)) {
        counts.add(value);
      }
    }
    return counts.stream().sorted().toList();
  }

  private static int positive(String option, String text) {
    int value;
    try {
      value = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      value = 0;
    }
    if (value < 1) {
      throw new IllegalArgumentException(
          "Cannot run the benchmarks: " + option + " \"" + text + "\" is not a positive number");
    }
    return value;
  }

  static Duration duration(String option, String text) {
    String lower = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (lower.endsWith("ms")) {
        return positive(option, Duration.ofMillis(Long.parseLong(lower.replace("ms", ""))));
      }
      if (lower.endsWith("s")) {
        double seconds = Double.parseDouble(lower.substring(0, lower.length() - 1));
        return positive(option, Duration.ofNanos((long) (seconds * 1e9)));
      }
      if (lower.endsWith("m")) {
        double minutes = Double.parseDouble(lower.substring(0, lower.length() - 1));
        return positive(option, Duration.ofNanos((long) (minutes * 60e9)));
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "Cannot run the benchmarks: "
            + option
            + " \""
            + text
            + "\" is not a duration (e.g. 2s, 500ms, 3m)");
  }

  private static Duration positive(String option, Duration value) {
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot run the benchmarks: " + option + " " + value + " must be positive (e.g. 2s)");
    }
    return value;
  }

  private static List<Long> sizes(String option, String list) {
    if (list.trim().equalsIgnoreCase("none")) {
      return List.of();
    }
    List<Long> sizes = new ArrayList<>();
    for (String size : list.split(",")) {
      String lower = size.trim().toLowerCase(Locale.ROOT);
      long unit;
      String number;
      if (lower.endsWith("gib")) {
        unit = GIB;
        number = lower.substring(0, lower.length() - 3);
      } else if (lower.endsWith("mib")) {
        unit = MIB;
        number = lower.substring(0, lower.length() - 3);
      } else if (lower.endsWith("kib")) {
        unit = 1024;
        number = lower.substring(0, lower.length() - 3);
      } else {
        throw new IllegalArgumentException(
            "Cannot run the benchmarks: "
                + option
                + " \""
                + size
                + "\" needs a unit KiB, MiB or GiB (e.g. 1MiB,1GiB, or none)");
      }
      sizes.add(positive(option, number) * unit);
    }
    return List.copyOf(sizes);
  }

  /** "1 MiB", "1 GiB", "64 KiB". */
  static String shownSize(long bytes) {
    if (bytes % GIB == 0) {
      return bytes / GIB + " GiB";
    }
    if (bytes % MIB == 0) {
      return bytes / MIB + " MiB";
    }
    return bytes / 1024 + " KiB";
  }

  /** "1", "1,000", "100,000". */
  static String shownCount(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }
}
