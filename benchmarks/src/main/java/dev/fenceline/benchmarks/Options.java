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
    List<DatabaseKind> databases,
    List<Integer> threads,
    Duration warmup,
    int rounds,
    Duration slice,
    List<Long> stagedSizes,
    boolean stagedSizesGiven,
    int stagedRounds,
    Optional<Path> workDirectory,
    boolean help) {

  static final long MIB = 1024L * 1024;
  static final long GIB = 1024L * MIB;

  /** The databases the harness can run on. */
  enum DatabaseKind {
    POSTGRESQL,
    SQLITE;

    String shown() {
      return this == POSTGRESQL ? "PostgreSQL" : "SQLite";
    }
  }

  static final String USAGE =
      """
      Usage: benchmarks/run [options]

        --quick                  short run for smoke testing (< 2 min): 2 rounds of 0.3 s slices,
                                 staged publish of 1 MiB only
        --out FILE               markdown report (default benchmarks/results/latest.md)
        --databases LIST         postgresql,sqlite (default both)
        --threads LIST           thread counts, e.g. 1,8 (default 1,8)
        --rounds N               measured rounds per database x threads (default 10; quick 2)
        --slice DURATION         time each row runs per round, e.g. 2s, 500ms (default 1s; quick 300ms)
        --warmup DURATION        warm-up slice per row, discarded (default 1s; quick 200ms)
        --staged-sizes LIST      payloads of the staged-publish table, e.g. 1MiB,1GiB, or none
                                 (default 1MiB,1GiB; quick 1MiB)
        --staged-rounds N        rounds of the staged-publish table (default 5; quick 2)
        --work-dir DIR           where the PostgreSQL data, the SQLite file and the staged files go
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
    List<DatabaseKind> databases = List.of(DatabaseKind.POSTGRESQL, DatabaseKind.SQLITE);
    List<Integer> threads = List.of(1, 8);
    Duration warmup = quick ? Duration.ofMillis(200) : Duration.ofSeconds(1);
    int rounds = quick ? 2 : 10;
    Duration slice = quick ? Duration.ofMillis(300) : Duration.ofSeconds(1);
    List<Long> stagedSizes = quick ? List.of(MIB) : List.of(MIB, GIB);
    boolean stagedSizesGiven = false;
    int stagedRounds = quick ? 2 : 5;
    Optional<Path> workDirectory = Optional.empty();
    boolean help = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--quick" -> {}
        case "--help", "-h" -> help = true;
        case "--out" -> out = Path.of(value(args, ++i, arg));
        case "--databases" -> databases = databases(value(args, ++i, arg));
        case "--threads" -> threads = threads(value(args, ++i, arg));
        case "--rounds" -> rounds = positive(arg, value(args, ++i, arg));
        case "--slice" -> slice = duration(arg, value(args, ++i, arg));
        case "--warmup" -> warmup = duration(arg, value(args, ++i, arg));
        case "--staged-sizes" -> {
          stagedSizes = sizes(value(args, ++i, arg));
          stagedSizesGiven = true;
        }
        case "--staged-rounds" -> stagedRounds = positive(arg, value(args, ++i, arg));
        case "--work-dir" -> workDirectory = Optional.of(Path.of(value(args, ++i, arg)));
        default ->
            throw new IllegalArgumentException(
                "Cannot run the benchmarks: unknown option \"" + arg + "\" (see --help)");
      }
    }
    return new Options(
        quick,
        out,
        databases,
        threads,
        warmup,
        rounds,
        slice,
        stagedSizes,
        stagedSizesGiven,
        stagedRounds,
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

  private static List<DatabaseKind> databases(String list) {
    LinkedHashSet<DatabaseKind> kinds = new LinkedHashSet<>();
    for (String name : list.split(",")) {
      switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "postgresql", "postgres", "pg" -> kinds.add(DatabaseKind.POSTGRESQL);
        case "sqlite" -> kinds.add(DatabaseKind.SQLITE);
        default ->
            throw new IllegalArgumentException(
                "Cannot run the benchmarks: unknown database \""
                    + name
                    + "\" in --databases (use postgresql, sqlite or both: postgresql,sqlite)");
      }
    }
    return List.copyOf(kinds);
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
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "Cannot run the benchmarks: "
            + option
            + " \""
            + text
            + "\" is not a duration (e.g. 2s, 500ms)");
  }

  private static Duration positive(String option, Duration value) {
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot run the benchmarks: " + option + " " + value + " must be positive (e.g. 2s)");
    }
    return value;
  }

  private static List<Long> sizes(String list) {
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
            "Cannot run the benchmarks: --staged-sizes \""
                + size
                + "\" needs a unit KiB, MiB or GiB (e.g. 1MiB,1GiB, or none)");
      }
      sizes.add(positive("--staged-sizes", number) * unit);
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
}
