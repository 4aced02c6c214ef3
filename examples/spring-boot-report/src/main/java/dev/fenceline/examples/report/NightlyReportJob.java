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
package dev.fenceline.examples.report;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.spring.Fenced;
import dev.fenceline.spring.FencedContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Computes the day's report and publishes it to the destination {@code reports} (a directory,
 * staged: the file becomes visible by a fenced pointer swap in the SQLite file).
 *
 * <p>{@code @Fenced} runs the method only on the instance that acquires the lease {@code
 * nightly-report}; the others skip the run with one log line. The publish carries the lease's
 * token, and the destination compares its epoch with the newest it has seen: an instance that
 * stalled past its lease (a GC pause, a frozen VM) and publishes late is rejected there, whatever
 * it believes about its lease.
 */
@Component
public class NightlyReportJob {

  private static final Logger LOG = LoggerFactory.getLogger(NightlyReportJob.class);

  private final Fenceline fenceline;
  private final ConfiguredDestination reports;
  private final String instance;
  private final DemoStall stall;

  NightlyReportJob(
      Fenceline fenceline,
      @Qualifier("reports") ConfiguredDestination reports,
      @Value("${nightly-report.instance}") String instance,
      DemoStall stall) {
    this.fenceline = fenceline;
    this.reports = reports;
    this.instance = instance;
    this.stall = stall;
  }

  /** Publishes today's report, on the instance that holds the lease. */
  @Fenced(resource = "nightly-report")
  @Scheduled(cron = "${nightly-report.cron}")
  public void publish() throws IOException {
    HeldLease lease = FencedContext.currentLease();
    // Cut older owners off before working: from now on an instance that stalled past its lease
    // cannot publish at this destination, even before this run publishes.
    if (fenceline.register(lease, reports.destination()) instanceof RejectedStale newer) {
      LOG.info("nightly-report: {}", newer.describe("register epoch " + lease.token().epoch()));
      return;
    }
    LocalDate day = LocalDate.now(ZoneOffset.UTC);
    // One operation per day and instance: a retry of this run replays the recorded receipt.
    OperationId operation = OperationId.of("report-" + day + "-" + instance);
    Path report = Files.createTempFile("nightly-report-", ".txt");
    try {
      Files.writeString(report, render(day), StandardCharsets.UTF_8);
      stall.afterComputing(lease);
      WriteOutcome outcome = reports.publish(lease.token(), operation, report);
      LOG.info(describe(outcome, lease));
    } finally {
      Files.deleteIfExists(report);
    }
  }

  private String render(LocalDate day) {
    return "Nightly report for " + day + "\ncomputed by instance " + instance + "\n";
  }

  private static String describe(WriteOutcome outcome, HeldLease lease) {
    long epoch = lease.token().epoch().value();
    if (outcome instanceof Applied applied) {
      return "nightly-report: outcome=APPLIED epoch=" + epoch + " " + applied.receipt();
    }
    if (outcome instanceof AlreadyApplied replayed) {
      return "nightly-report: outcome=ALREADY_APPLIED epoch=" + epoch + " " + replayed.receipt();
    }
    RejectedStale stale = (RejectedStale) outcome;
    return "nightly-report: outcome=REJECTED_STALE epoch="
        + epoch
        + " current="
        + stale.current().value()
        + " (another instance took over while this one stalled; its report stays published)";
  }
}
