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

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.config.Strategy;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.staging.SweepReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The steps {@code publish} and {@code run --publish} share: acquire, register, publish, print. */
final class Publishing {

  /** Payloads at least this large get a progress indicator, when standard output is a terminal. */
  static final long PROGRESS_THRESHOLD = 8L * 1024 * 1024;

  private Publishing() {}

  /**
   * Acquires the lease on {@code resource}, or fails with {@link ExitCode#LEASE_NOT_ACQUIRED} at
   * once, naming the holder.
   */
  static HeldLease acquire(Fenceline fenceline, FencelineConfig config, ResourceId resource) {
    Interruption interruption = Interruption.process();
    return interruption
        .step(
            () -> {
              Optional<HeldLease> lease = fenceline.tryAcquire(resource);
              // Known to the shutdown hook before the step ends: a signal from now on releases it.
              lease.ifPresent(held -> interruption.holding(held, config.issuer(), config::mask));
              return lease;
            })
        .orElseThrow(
            () -> {
              LeaseStatus status = config.issuer().status(resource);
              Map<String, Object> details = new LinkedHashMap<>();
              details.put("lease", lease(status));
              if (LeaseHolder.deadOnThisHost(status)) {
                details.put("holder-running", false);
                return new CommandFailure(
                    ExitCode.LEASE_NOT_ACQUIRED,
                    "Cannot acquire the lease on "
                        + resource
                        + ": it is "
                        + LeaseHolder.deadHolderLine(status)
                        + " at epoch "
                        + status.epoch()
                        + " (nothing was started; run again after that time: a holder that died"
                        + " without releasing keeps the lease until its ttl ends, and a shorter"
                        + " lease.ttl frees it sooner)",
                    details,
                    null);
              }
              return new CommandFailure(
                  ExitCode.LEASE_NOT_ACQUIRED,
                  "Cannot acquire the lease on "
                      + resource
                      + ": it is held by "
                      + status.holder().orElse("another holder")
                      + " at epoch "
                      + status.epoch()
                      + status
                          .expiresAt()
                          .map(at -> " until " + at + " by the issuer's clock")
                          .orElse("")
                      + " (nothing was started; try again when it is free, see fenceline status)",
                  details,
                  null);
            });
  }

  /**
   * Registers the lease's epoch at the destination, or fails with {@link ExitCode#REJECTED_STALE}.
   */
  static void register(Fenceline fenceline, HeldLease lease, ConfiguredDestination destination) {
    RegisterOutcome outcome =
        Interruption.process().step(() -> fenceline.register(lease, destination.destination()));
    if (outcome instanceof RejectedStale stale) {
      throw stale(stale, "register at " + destination.name() + " the lease on");
    }
  }

  /**
   * Publishes {@code file} streamed; with {@code progress}, a large file shows how much was sent on
   * {@code err}. A retry of an applied operation reads the file only to hash it: a staged
   * destination answers it before uploading anything. If the process is told to stop meanwhile,
   * {@link Interruption} makes the upload fail and reports.
   */
  static WriteOutcome publish(
      FencelineConfig config,
      ConfiguredDestination destination,
      FencingToken token,
      OperationId operation,
      Path file,
      boolean progress,
      PrintStream err) {
    if (destination.strategy() == Strategy.FENCED_AT_INTENT) {
      // The request body is the file itself, read by the HTTP client: it may land from the start.
      return Interruption.process()
          .publishing(
              file.toString(),
              destination.name(),
              operation,
              true,
              () -> destination.publish(token, operation, file));
    }
    InputStream content;
    try {
      content = Files.newInputStream(file);
    } catch (IOException e) {
      throw new StoreException(
          "Cannot publish " + file + " to " + destination.name() + ": " + e.getMessage(), e, false);
    }
    return publish(
        config,
        destination,
        token,
        operation,
        content,
        file.toString(),
        sizeOf(file),
        progress,
        err);
  }

  /**
   * Publishes {@code content} (closed here), called {@code what} in messages, to a staged
   * destination; {@code size} is -1 if unknown (standard input).
   */
  @SuppressWarnings("unchecked")
  static WriteOutcome publish(
      FencelineConfig config,
      ConfiguredDestination destination,
      FencingToken token,
      OperationId operation,
      InputStream content,
      String what,
      long size,
      boolean progress,
      PrintStream err) {
    Interruption interruption = Interruption.process();
    InputStream payload = interruption.payload(content);
    if (progress && (size < 0 || size >= PROGRESS_THRESHOLD)) {
      payload = new ProgressInputStream(payload, size, "publishing to " + destination.name(), err);
    }
    try (InputStream stream = payload) {
      return interruption.publishing(
          what,
          destination.name(),
          operation,
          false,
          () ->
              config
                  .fenceline()
                  .publish(
                      token,
                      (Destination<InputStream>) destination.destination(),
                      operation,
                      stream));
    } catch (IOException e) {
      throw new StoreException(
          "Cannot publish " + what + " to " + destination.name() + ": " + e.getMessage(), e, false);
    }
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * Prints an applied or already-applied outcome with its receipt; a stale rejection is a failure.
   */
  static void print(WriteOutcome outcome, Report report) {
    if (outcome instanceof RejectedStale stale) {
      throw stale(stale, "publish");
    }
    if (outcome instanceof Applied applied) {
      Receipt receipt = applied.receipt();
      report
          .put("outcome", "applied")
          .put("receipt", receipt(receipt))
          .line(
              "applied: "
                  + receipt.resource()
                  + " operation "
                  + receipt.operation()
                  + " published to "
                  + receipt.destination()
                  + " at epoch "
                  + receipt.epoch())
          .line("receipt: " + receiptLine(receipt));
    } else {
      Receipt receipt = ((AlreadyApplied) outcome).receipt();
      report
          .put("outcome", "already-applied")
          .put("receipt", receipt(receipt))
          .line(
              "already applied: operation "
                  + receipt.operation()
                  + " on "
                  + receipt.resource()
                  + " was applied before at epoch "
                  + receipt.epoch()
                  + "; nothing was changed (the receipt is the first publish's)")
          .line("receipt: " + receiptLine(receipt));
    }
  }

  /**
   * After a successful publish of {@code resource}: sweeps the resource at {@code destination} if
   * it asks for it ({@link ConfiguredDestination#sweepsAfterPublish()}), so that its {@code
   * keep-versions} and {@code sweep-grace} take effect. The publish is done by then, so a failing
   * sweep never fails the command: it is a warning on {@code err} and a {@code "sweep"} field with
   * a {@code "warning"} in the JSON document; the outcome stays what it was.
   */
  static void sweepAfter(
      FencelineConfig config,
      ConfiguredDestination destination,
      ResourceId resource,
      Report report,
      PrintStream err) {
    Optional<StagedDestination> staged = destination.staged();
    if (staged.isEmpty() || !destination.sweepsAfterPublish()) {
      return;
    }
    try {
      SweepReport swept = staged.get().sweep(resource);
      report.put("sweep", SweepCommand.fields(null, staged.get(), swept));
      if (!swept.deleted().isEmpty()) {
        report.line(
            "swept: deleted "
                + swept.deleted().size()
                + " staged "
                + (swept.deleted().size() == 1 ? "file" : "files")
                + " of "
                + resource
                + " no longer kept (keep-versions "
                + staged.get().keepVersions()
                + "), kept "
                + swept.kept());
      }
    } catch (RuntimeException e) {
      String warning =
          ConfiguredCommand.oneLine(
              config.mask(
                  "Cannot sweep "
                      + resource
                      + " at "
                      + destination.name()
                      + " after publishing it: "
                      + e.getMessage()
                      + " (the publish itself succeeded; run fenceline sweep --config "
                      + config.file()
                      + " --destination "
                      + destination.name()
                      + " later)"));
      err.println("fenceline: warning: " + warning);
      err.flush();
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("warning", warning);
      report.put("sweep", fields);
    }
  }

  static CommandFailure stale(RejectedStale stale, String action) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("outcome", "rejected-stale");
    details.put("supplied-epoch", stale.supplied().value());
    details.put("current-epoch", stale.current().value());
    return new CommandFailure(ExitCode.REJECTED_STALE, stale.describe(action), details, null);
  }

  /** {@code destination=... resource=... operation=... epoch=... recorded-at=... name=value...}. */
  static String receiptLine(Receipt receipt) {
    StringBuilder line =
        new StringBuilder()
            .append("destination=")
            .append(receipt.destination())
            .append(" resource=")
            .append(receipt.resource())
            .append(" operation=")
            .append(receipt.operation())
            .append(" epoch=")
            .append(receipt.epoch())
            .append(" recorded-at=")
            .append(receipt.recordedAt());
    receipt
        .attributes()
        .forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
    return line.toString();
  }

  static Map<String, Object> receipt(Receipt receipt) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("destination", receipt.destination());
    fields.put("resource", receipt.resource().value());
    fields.put("operation", receipt.operation().value());
    fields.put("epoch", receipt.epoch().value());
    fields.put("recorded-at", receipt.recordedAt().toString());
    fields.put("attributes", new LinkedHashMap<>(receipt.attributes()));
    return fields;
  }

  static Map<String, Object> lease(LeaseStatus status) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("resource", status.resource().value());
    fields.put("held", status.held());
    fields.put("epoch", status.epoch().value());
    fields.put("holder", status.holder().orElse(null));
    fields.put("expires-at", status.expiresAt().map(Object::toString).orElse(null));
    return fields;
  }
}
