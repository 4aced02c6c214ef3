package dev.fenceline.cli;

import dev.fenceline.config.DestinationReport;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.monitor.LeaseAdvice;
import dev.fenceline.core.monitor.PauseMonitor;
import dev.fenceline.core.monitor.PauseSnapshot;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Guarantee;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fenceline doctor}: validates the file, opens every store, prints each guarantee. */
@Command(
    name = "doctor",
    description = {
      "Check the configuration: validate the file, open every store (running each adapter's"
          + " checks), and print for every destination its type, capabilities, guarantee, the"
          + " strategy chosen and why; for an http destination also the rule its re-sends follow"
          + " (lookup first, keys honoured, or send once) and what it can still let through.",
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

  @Override
  int execute(FencelineConfig config, Report report) {
    S3ProbeRecheck.requestIf(recheck);
    List<DestinationReport> rows = config.describe();
    config.issuer(); // the issuer's store is opened by describe(); this checks it issues leases
    Guarantee weakestAllowed = weakestAllowed(config);
    List<Map<String, Object>> destinations = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    report.line(
        "configuration "
            + config.file()
            + ": stores "
            + String.join(", ", config.storeNames())
            + " opened");
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
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", row.name());
      fields.put("type", row.type());
      fields.put("capabilities", row.capabilities().stream().map(Capability::name).toList());
      fields.put("guarantee", row.guarantee().name());
      fields.put("strategy", row.strategy().name());
      fields.put("why", row.why());
      row.resendRule().ifPresent(rule -> fields.put("re-sends", rule));
      fields.put("allowed", allowed);
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
    return ExitCode.OK.code();
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
