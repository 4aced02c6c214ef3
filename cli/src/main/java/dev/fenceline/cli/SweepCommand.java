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
import dev.fenceline.spi.BlobKey;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.staging.SweepReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fenceline sweep}: deletes staged files no publish can name and versions not kept. */
@Command(
    name = "sweep",
    description = {
      "Sweep each staged destination (or only D): delete the staged files that can never be"
          + " published (an older epoch than the resource's current one) and the files of"
          + " published versions older than the newest keep-versions, once they are older than"
          + " sweep-grace. Files of the current epoch are never deleted. Prints each file deleted"
          + " and how many were kept.",
      "publish and run --publish already sweep the resource they published unless the"
          + " destination says sweep-after-publish: false; run this from cron for the others."
    })
final class SweepCommand extends ConfiguredCommand {

  @Option(
      names = "--destination",
      paramLabel = "D",
      description = "Sweep only destination D (default: every staged destination).")
  String destination;

  SweepCommand(PrintStream out, PrintStream err) {
    super(out, err);
  }

  @Override
  String name() {
    return "sweep";
  }

  @Override
  int execute(FencelineConfig config, Report report) {
    List<ConfiguredDestination> targets = new ArrayList<>();
    if (destination != null) {
      ConfiguredDestination named = config.destination(destination);
      if (named.staged().isEmpty()) {
        throw new CommandFailure(
            ExitCode.BAD_CONFIG_OR_USAGE,
            "Cannot sweep destination "
                + named.name()
                + ": it is of type "
                + named.type()
                + ", and only staged destinations keep files to sweep (name a staged one, or"
                + " drop --destination to sweep them all)");
      }
      targets.add(named);
    } else {
      for (String name : config.destinationNames()) {
        ConfiguredDestination candidate = config.destination(name);
        if (candidate.staged().isPresent()) {
          targets.add(candidate);
        }
      }
    }
    List<Map<String, Object>> swept = new ArrayList<>();
    report.put("destinations", swept);
    if (targets.isEmpty()) {
      report.line("nothing to sweep: " + config.file() + " has no staged destination");
      return ExitCode.OK.code();
    }
    for (ConfiguredDestination target : targets) {
      StagedDestination staged = target.staged().orElseThrow();
      SweepReport result = staged.sweep();
      swept.add(fields(target.name(), staged, result));
      report.line(
          "swept "
              + target.name()
              + ": deleted "
              + result.deleted().size()
              + " staged "
              + (result.deleted().size() == 1 ? "file" : "files")
              + ", kept "
              + result.kept()
              + " (keep-versions "
              + staged.keepVersions()
              + ", sweep-grace "
              + DurationConverter.format(staged.sweepGrace())
              + ")");
      result.deleted().forEach(key -> report.line("deleted: " + key));
    }
    return ExitCode.OK.code();
  }

  /** One destination's sweep in the {@code --json} document (also used after a publish). */
  static Map<String, Object> fields(String name, StagedDestination staged, SweepReport result) {
    Map<String, Object> fields = new LinkedHashMap<>();
    if (name != null) {
      fields.put("name", name);
    }
    fields.put("deleted", result.deleted().stream().map(BlobKey::value).toList());
    fields.put("kept", result.kept());
    fields.put("keep-versions", staged.keepVersions());
    fields.put("sweep-grace", DurationConverter.format(staged.sweepGrace()));
    return fields;
  }
}
