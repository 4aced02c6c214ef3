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

import dev.fenceline.config.FencelineConfig;
import dev.fenceline.jdbc.JdbcAdapter;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.PruneReport;
import dev.fenceline.jdbc.Retention;
import dev.fenceline.spi.Adapter;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fenceline prune}: JDBC retention, the receipts and pointer versions no longer kept. */
@Command(
    name = "prune",
    description = {
      "Prune each jdbc store that has a retention (or only store S): delete the receipts"
          + " recorded longer ago than its receipt-retention and the publish-pointer versions"
          + " beyond its pointer-versions, in short transactions that do not hold up writers. A"
          + " lookup of a pruned receipt answers \"outcome unknown\", never \"never applied\".",
      "A jdbc store without a retention is named with the keys to set; if no store can be"
          + " pruned, fenceline exits 2."
    })
final class PruneCommand extends ConfiguredCommand {

  private static final String KEYS_TO_SET =
      "receipt-retention (at least as long as callers may retry an operation, e.g. 7d) and"
          + " pointer-versions (at least the keep-versions of every staged destination on it,"
          + " e.g. 16)";

  @Option(
      names = "--store",
      paramLabel = "S",
      description =
          "Prune only store S, a jdbc store (default: every jdbc store with a retention).")
  String store;

  PruneCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "prune";
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    List<String> names = storesToPrune(config);
    List<Map<String, Object>> stores = new ArrayList<>();
    report.put("stores", stores);
    List<String> withoutRetention = new ArrayList<>();
    for (String name : names) {
      if (!prune(config, name, stores, report)) {
        withoutRetention.add(name);
      }
    }
    if (withoutRetention.size() == names.size()) {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("stores", stores);
      throw new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE,
          "Cannot prune "
              + (names.size() == 1 ? "store " + names.get(0) : "stores " + String.join(", ", names))
              + ": no retention is configured, so nothing is ever deleted (set "
              + KEYS_TO_SET
              + " under stores."
              + (names.size() == 1 ? names.get(0) : "NAME")
              + ")",
          details,
          null);
    }
    return ExitCode.OK.code();
  }

  /**
   * The jdbc stores to prune: {@code --store}, or every jdbc store of the configuration.
   *
   * @throws CommandFailure if {@code --store} is no jdbc store, or there is none
   */
  private List<String> storesToPrune(FencelineConfig config) {
    List<String> names = new ArrayList<>();
    if (store != null) {
      String type = config.storeType(store);
      if (!type.equals("jdbc")) {
        throw usage(
            "Cannot prune store "
                + store
                + ": it is of type "
                + type
                + ", and only jdbc stores keep receipts and pointer versions to prune (name a jdbc"
                + " store)");
      }
      names.add(store);
    } else {
      config.storeNames().stream()
          .filter(name -> config.storeType(name).equals("jdbc"))
          .forEach(names::add);
      if (names.isEmpty()) {
        throw usage(
            "Cannot prune: "
                + config.file()
                + " has no jdbc store (prune deletes old receipts and pointer versions of jdbc"
                + " stores)");
      }
    }
    return names;
  }

  /**
   * Prunes store {@code name} if it has a retention, and reports it: its fields are added to {@code
   * stores}, and a line.
   *
   * @return false if the store has no retention (nothing was pruned)
   */
  private static boolean prune(
      FencelineConfig config, String name, List<Map<String, Object>> stores, Report report) {
    JdbcStore jdbc = jdbcStore(config, name);
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", name);
    stores.add(fields);
    Optional<Retention> retention = jdbc.retention();
    if (retention.isEmpty()) {
      fields.put("pruned", false);
      fields.put("reason", "no retention configured: set " + KEYS_TO_SET);
      report.line(
          "store "
              + name
              + ": no retention configured, nothing pruned (set "
              + KEYS_TO_SET
              + " under stores."
              + name
              + ")");
      return false;
    }
    PruneReport pruned = jdbc.prune();
    fields.put("pruned", true);
    fields.put("receipt-retention", DurationConverter.format(retention.get().receipts()));
    fields.put("pointer-versions", retention.get().pointerVersions());
    fields.put("receipts-deleted", pruned.receiptsDeleted());
    fields.put("pointer-versions-deleted", pruned.pointerVersionsDeleted());
    fields.put("pruned-before", pruned.prunedBefore().toString());
    fields.put("batches", pruned.batches());
    report.line(
        "pruned store "
            + name
            + ": deleted "
            + pruned.receiptsDeleted()
            + " receipts recorded before "
            + pruned.prunedBefore()
            + " and "
            + pruned.pointerVersionsDeleted()
            + " pointer versions beyond the newest "
            + retention.get().pointerVersions()
            + " per resource, in "
            + pruned.batches()
            + " transactions");
    return true;
  }

  private static JdbcStore jdbcStore(FencelineConfig config, String name) {
    Adapter adapter = config.storeAdapter(name);
    if (adapter instanceof JdbcAdapter jdbc) {
      return jdbc.store();
    }
    throw new CommandFailure(
        ExitCode.FAILURE,
        "Cannot prune store "
            + name
            + ": its adapter is "
            + adapter.getClass().getName()
            + ", not Fenceline's jdbc adapter (check the class path for another adapter named"
            + " jdbc)");
  }

  private static CommandFailure usage(String message) {
    return new CommandFailure(ExitCode.BAD_CONFIG_OR_USAGE, message);
  }
}
