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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.PublishedBlob;
import dev.fenceline.staging.StagedDestination;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fenceline status}: the lease as the issuer sees it, and what a destination published. */
@Command(
    name = "status",
    description = {
      "Show the lease on resource R as the issuer sees it: holder, epoch and expiry by the"
          + " issuer's clock. With --destination, also the epoch registered there and the last"
          + " publish: pointer version, file and receipt (staged destinations)."
    })
final class StatusCommand extends ConfiguredCommand {

  @Parameters(index = "0", paramLabel = "R", description = "The resource, e.g. nightly-report.")
  String resource;

  @Option(
      names = "--destination",
      paramLabel = "D",
      description = "Also show what destination D has for R.")
  String destination;

  StatusCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "status";
  }

  /** Status only looks: its stores open read-only (no tables created, no write lock waited for). */
  @Override
  boolean readOnly() {
    return true;
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    ResourceId resourceId = resource("resource", resource);
    LeaseStatus status = config.issuer().status(resourceId);
    report.put("lease", Publishing.lease(status));
    report.line("resource: " + resourceId);
    boolean deadHolder = LeaseHolder.deadOnThisHost(status);
    if (deadHolder) {
      report.put("holder-running", false);
    }
    report.line("lease: " + leaseLine(status, deadHolder));
    if (destination == null) {
      return ExitCode.OK.code();
    }
    ConfiguredDestination target = config.destination(destination);
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", target.name());
    fields.put("registered-epoch", target.destination().currentEpoch(resourceId).value());
    report.line(
        "destination "
            + target.name()
            + ": registered epoch "
            + target.destination().currentEpoch(resourceId));
    if (target.destination() instanceof StagedDestination staged) {
      reportPublished(staged, resourceId, fields, report);
    } else {
      report.line(
          "published: destination "
              + target.name()
              + " ("
              + target.type()
              + ") cannot tell its last publish; look up an operation's receipt instead");
    }
    report.put("destination", fields);
    return ExitCode.OK.code();
  }

  /** The lease as the issuer sees it, or its holder's death on this host. */
  private static String leaseLine(LeaseStatus status, boolean deadHolder) {
    if (deadHolder) {
      return LeaseHolder.deadHolderLine(status) + " (epoch " + status.epoch() + ")";
    }
    if (status.held()) {
      return "held by "
          + status.holder().orElse("(unknown)")
          + " at epoch "
          + status.epoch()
          + status.expiresAt().map(at -> ", expires " + at + " by the issuer's clock").orElse("");
    }
    return status.epoch().equals(Epoch.NONE)
        ? "free (no leases issued yet)"
        : "free (last epoch " + status.epoch() + ")";
  }

  /** Reports the blob {@code staged} publishes for the resource now, and its receipt. */
  private static void reportPublished(
      StagedDestination staged, ResourceId resourceId, Map<String, Object> fields, Report report) {
    Optional<PublishedBlob> published = staged.resolve(resourceId);
    if (published.isEmpty()) {
      report.line("published: nothing yet");
      fields.put("published", null);
      return;
    }
    PublishedBlob blob = published.get();
    Map<String, Object> pointer = new LinkedHashMap<>();
    pointer.put("version", blob.version());
    pointer.put("epoch", blob.epoch().value());
    pointer.put("operation", blob.operation().value());
    pointer.put("key", blob.key().toString());
    pointer.put("size", blob.size());
    pointer.put("sha256", blob.sha256());
    fields.put("published", pointer);
    report.line(
        "published: version "
            + blob.version()
            + " by operation "
            + blob.operation()
            + " at epoch "
            + blob.epoch()
            + ", "
            + blob.size()
            + " bytes at "
            + blob.key());
    Optional<Receipt> receipt = staged.lookup(resourceId, blob.operation());
    receipt.ifPresent(
        found -> {
          fields.put("receipt", Publishing.receipt(found));
          report.line("receipt: " + Publishing.receiptLine(found));
        });
  }
}
