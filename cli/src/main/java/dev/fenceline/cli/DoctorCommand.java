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

import dev.fenceline.config.ConfigCheck;
import dev.fenceline.config.DestinationReport;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.monitor.LeaseAdvice;
import dev.fenceline.core.monitor.PauseMonitor;
import dev.fenceline.core.monitor.PauseSnapshot;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.StorePreflight;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fenceline doctor}: validates the file, checks every store without creating or migrating
 * anything (stores open {@linkplain #readOnly() for reading}), prints each guarantee.
 */
@Command(
    name = "doctor",
    description = {
      "Check the configuration without creating or migrating anything: validate the file, check"
          + " every store (what publish would create, whether it can be written), open the stores"
          + " that exist for reading (no tables, no migration, no write lock; running each"
          + " adapter's checks), and print for every destination its type,"
          + " capabilities, guarantee, the strategy chosen and why; for an http destination also"
          + " the rule its re-sends follow (lookup first, keys honoured, or send once) and what it"
          + " can still let through.",
      "Creates no store: a missing directory or SQLite file is reported as \"would create ...\""
          + " (publish creates it); a directory or file that cannot be written as \"not"
          + " writable: DIR (read-only file system)\" or \"(permission denied)\", checked on the"
          + " nearest existing parent, and doctor then exits 6. Relative paths in the file"
          + " resolve against the working directory. A database without Fenceline's tables is"
          + " reported as \"would create Fenceline's tables\", one with older tables as \"would"
          + " migrate Fenceline's schema from vN to vM\" (publish does it).",
      "Writes only what the checks need, removed again: an s3 store's conditional-write probe"
          + " writes and deletes probe objects under <prefix>/.fenceline/probe/ (a pass is"
          + " cached 24h; it may create the pointer store identity"
          + " <prefix>/.fenceline/pointers/store.json once, as publish would); a vfs store's case"
          + " check creates and deletes one probe file in its existing directory.",
      "A destination whose bearer token variable (bearer-token-env) is not set here is listed"
          + " as \"not usable: ...\" naming the variable, and does not change the exit status:"
          + " the file is fine, and the job's own environment must export it (publish to that"
          + " destination exits 2 naming the variable).",
      "Warns (exit status unchanged) about a lease ttl below the lease advice's floor.",
      "Exits 2 if a destination's guarantee is weaker than the file allows (UNGUARDED needs"
          + " allow-unguarded: true, IDEMPOTENT_ONLY allow-idempotent-only: true, FENCED_AT_INTENT"
          + " allow-fenced-at-intent: true).",
      "With --advise, also watches this process for pauses during --observe and recommends a lease"
          + " ttl and renew interval, with its reasoning."
    })
final class DoctorCommand extends ConfiguredCommand {

  @Option(
      names = "--advise",
      description = "Measure pauses and recommend a lease ttl and renew interval.")
  boolean advise;

  @Option(
      names = "--observe",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      defaultValue = "10s",
      description = "How long --advise watches for pauses (default 10s).")
  Duration observe;

  @Option(
      names = "--recheck",
      description =
          "Probe S3 endpoints' conditional writes again instead of using a cached pass (kept 24h"
              + " in $XDG_CACHE_HOME/fenceline/s3-probe, see probe-cache), and refresh the cache.")
  boolean recheck;

  DoctorCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "doctor";
  }

  /**
   * Doctor only looks: its stores open read-only, so a database gets no tables and no migration
   * (reported as "would create ..." or "would migrate ...") and no write lock is waited for.
   */
  @Override
  boolean readOnly() {
    return true;
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    S3ProbeRecheck.requestIf(recheck);
    ConfigCheck check = config.check();
    List<DestinationReport> rows = check.destinations();
    Guarantee weakestAllowed = weakestAllowed(config);
    List<Map<String, Object>> destinations = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    report.line("configuration " + config.file());
    List<String> unwritable = storeLines(check, report);
    String format = "%-20s %-6s %-18s %-30s %s";
    report.line(
        String.format(format, "DESTINATION", "TYPE", "GUARANTEE", "STRATEGY", "CAPABILITIES"));
    for (DestinationReport row : rows) {
      String capabilities =
          row.capabilities().stream().map(Capability::name).collect(Collectors.joining(","));
      boolean allowed = row.guarantee().compareTo(weakestAllowed) <= 0;
      report.line(
          String.format(
              format,
              row.name(),
              row.type(),
              row.guarantee(),
              row.strategy(),
              capabilities.isEmpty() ? "-" : capabilities));
      report.line("  why: " + row.why());
      row.resendRule().ifPresent(rule -> report.line("  re-sends: " + rule));
      row.notUsable().ifPresent(reason -> report.line("  not usable: " + reason));
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", row.name());
      fields.put("type", row.type());
      fields.put("capabilities", row.capabilities().stream().map(Capability::name).toList());
      fields.put("guarantee", row.guarantee().name());
      fields.put("strategy", row.strategy().name());
      fields.put("why", row.why());
      row.resendRule().ifPresent(rule -> fields.put("re-sends", rule));
      fields.put("allowed", allowed);
      fields.put("usable", row.notUsable().isEmpty());
      row.notUsable().ifPresent(reason -> fields.put("not-usable", reason));
      destinations.add(fields);
      if (!allowed) {
        refused.add(
            row.name() + " (" + row.guarantee() + ", set " + allowKey(row.guarantee()) + ": true)");
      }
    }
    if (rows.isEmpty()) {
      report.line("(no destinations configured)");
    }
    report.put("destinations", destinations);
    List<String> warnings = warnings(config);
    warnings.forEach(warning -> report.line("warning: " + warning));
    report.put("warnings", warnings);
    if (advise) {
      advise(config, report);
    }
    if (!refused.isEmpty()) {
      throw new CommandFailure(
          ExitCode.BAD_CONFIG_OR_USAGE,
          "Cannot accept "
              + String.join(", ", refused)
              + " in "
              + config.file()
              + ": the guarantee is weaker than the file allows (a stale writer could get"
              + " through; use a fenced store, or allow it explicitly if you accept that)",
          Map.of("destinations", destinations),
          null);
    }
    if (!unwritable.isEmpty()) {
      throw new CommandFailure(
          ExitCode.STORE_UNREACHABLE,
          "Cannot write to "
              + String.join("; ", unwritable)
              + " (publish would fail there; make it writable, or point the store elsewhere)",
          Map.of("destinations", destinations),
          null);
    }
    return ExitCode.OK.code();
  }

  /**
   * One line per store: opened, would create, or not writable; returns the stores that cannot be
   * written, for the failure message.
   */
  private static List<String> storeLines(ConfigCheck check, Report report) {
    List<Map<String, Object>> stores = new ArrayList<>();
    List<String> unwritable = new ArrayList<>();
    for (ConfigCheck.StoreCheck store : check.stores()) {
      StorePreflight preflight = store.preflight();
      String subject = "store " + store.name() + " (" + store.type() + "): ";
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", store.name());
      fields.put("type", store.type());
      fields.put("opened", preflight.readyToOpen());
      fields.put("would-create", preflight.wouldCreate());
      fields.put("problems", preflight.problems());
      fields.put("would-change", store.wouldChange());
      stores.add(fields);
      if (!preflight.problems().isEmpty()) {
        report.line(subject + String.join("; ", preflight.problems()));
        unwritable.add("store " + store.name() + ": " + String.join("; ", preflight.problems()));
      } else if (!preflight.wouldCreate().isEmpty()) {
        report.line(
            subject
                + "would create "
                + String.join(", ", preflight.wouldCreate())
                + " (publish creates it; doctor creates nothing)");
      } else if (!store.wouldChange().isEmpty()) {
        report.line(
            subject
                + "opened for reading; would "
                + String.join("; would ", store.wouldChange())
                + " (publish does it; doctor changes nothing)");
      } else {
        report.line(subject + "opened");
      }
    }
    report.put("stores", stores);
    return unwritable;
  }

  /** What the file allows but will likely hurt: a lease ttl below the lease advice's floor. */
  private static List<String> warnings(FencelineConfig config) {
    List<String> warnings = new ArrayList<>();
    Duration ttl = config.lease().ttl();
    if (ttl.compareTo(LeaseAdvice.DEFAULT_MINIMUM_TTL) < 0) {
      warnings.add(
          "lease ttl "
              + DurationConverter.format(ttl)
              + " is below the "
              + DurationConverter.format(LeaseAdvice.DEFAULT_MINIMUM_TTL)
              + " floor the lease advice uses: an ordinary GC or VM pause, or one slow renewal,"
              + " makes a healthy worker lose its lease (raise lease.ttl; doctor --advise"
              + " measures pauses)");
    }
    return warnings;
  }

  private void advise(FencelineConfig config, Report report) {
    PauseSnapshot pauses;
    try (PauseMonitor monitor = PauseMonitor.builder().build().start()) {
      if (!json) {
        err.println(
            "fenceline: observing pauses for " + DurationConverter.format(observe) + " ...");
      }
      try {
        Thread.sleep(observe.toMillis()); // the observation window itself, not an ordering wait
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      pauses = monitor.snapshot();
    }
    LeaseAdvice advice =
        LeaseAdvice.basedOn(pauses)
            .fencingCounts(config.fenceline().metrics().counts())
            .currentTtl(config.lease().ttl())
            .advise();
    report.line("").line("lease advice: " + advice).line(advice.explain());
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("ttl", DurationConverter.format(advice.ttl()));
    fields.put("renew-every", DurationConverter.format(advice.renewInterval()));
    fields.put("reasoning", advice.reasoning());
    report.put("advice", fields);
  }

  private static Guarantee weakestAllowed(FencelineConfig config) {
    if (config.allowUnguarded()) {
      return Guarantee.UNGUARDED;
    }
    if (config.allowIdempotentOnly()) {
      return Guarantee.IDEMPOTENT_ONLY;
    }
    return config.allowFencedAtIntent() ? Guarantee.FENCED_AT_INTENT : Guarantee.FENCED_BY_STAGING;
  }

  private static String allowKey(Guarantee guarantee) {
    return switch (guarantee) {
      case FENCED_AT_INTENT -> "allow-fenced-at-intent";
      case IDEMPOTENT_ONLY -> "allow-idempotent-only";
      default -> "allow-unguarded";
    };
  }
}
