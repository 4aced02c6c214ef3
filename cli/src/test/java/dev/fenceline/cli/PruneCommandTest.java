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

import static dev.fenceline.cli.StagedCli.NO_ENV;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.ResourceId;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fenceline prune}: JDBC retention from the command line, for stores that configure one.
 * Separate processes on SQLite and a local directory.
 */
@Timeout(180) // a failure detector only
class PruneCommandTest {

  @TempDir Path dir;

  @Test
  void pruneDeletesTheReceiptsAndPointerVersionsTheRetentionNoLongerKeeps() throws Exception {
    Path config =
        StagedCli.config(
            dir, "receipt-retention: 1ms\npointer-versions: 2", "keep-versions: 2", "");
    for (int i = 1; i <= 5; i++) {
      Path report = Files.writeString(dir.resolve("report.csv"), "version " + i + "\n");
      assertThat(StagedCli.publish(config, report, "report-" + i).exitCode()).isZero();
    }

    CliProcess.Result json =
        CliProcess.run(NO_ENV, "prune", "--config", config.toString(), "--json");
    CliProcess.Result text =
        CliProcess.run(NO_ENV, "prune", "--config", config.toString(), "--store", "main");

    assertThat(json.exitCode()).as(json.transcript()).isZero();
    JsonNode main = new JsonMapper().readTree(json.out()).at("/stores/0");
    assertThat(main.get("name").asString()).isEqualTo("main");
    assertThat(main.get("pruned").asBoolean()).isTrue();
    assertThat(main.get("pointer-versions-deleted").asLong()).isEqualTo(3);
    assertThat(main.get("receipts-deleted").asLong())
        .as("all but the current pointer's")
        .isEqualTo(4);
    try (JdbcStore store = JdbcStore.sqlite(dir.resolve("fenceline.db"))) {
      assertThat(store.pointerStore("reports").history(ResourceId.of(StagedCli.RESOURCE), 10))
          .hasSize(2);
    }
    assertThat(text.exitCode()).as(text.transcript()).isZero();
    assertThat(text.out()).startsWith("pruned store main: deleted 0 receipts recorded before ");
  }

  @Test
  void aStoreWithoutRetentionIsNamedWithTheKeysToSet() throws Exception {
    Path config = StagedCli.config(dir, "", "", "");

    CliProcess.Result all = CliProcess.run(NO_ENV, "prune", "--config", config.toString());
    CliProcess.Result json =
        CliProcess.run(NO_ENV, "prune", "--config", config.toString(), "--json");
    CliProcess.Result directory =
        CliProcess.run(NO_ENV, "prune", "--config", config.toString(), "--store", "reports-dir");
    CliProcess.Result unknown =
        CliProcess.run(NO_ENV, "prune", "--config", config.toString(), "--store", "mian");

    assertThat(all.exitCode()).as(all.transcript()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(all.err())
        .contains("Cannot prune store main: no retention is configured")
        .contains("receipt-retention", "pointer-versions", "under stores.main")
        .hasLineCount(1);
    assertThat(json.exitCode()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(new JsonMapper().readTree(json.out()).at("/stores/0/pruned").asBoolean()).isFalse();
    assertThat(directory.exitCode()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(directory.err()).contains("store reports-dir: it is of type vfs");
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(unknown.err()).contains("Cannot find store \"mian\"", "main, reports-dir");
  }
}
