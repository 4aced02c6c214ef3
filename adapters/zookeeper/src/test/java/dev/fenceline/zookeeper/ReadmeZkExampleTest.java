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
package dev.fenceline.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.ReadmeExamples;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's ZooKeeper example, compiled from the README as it stands and run on the test
 * ensemble; its connect string, root path and directory point at the test's.
 */
class ReadmeZkExampleTest {

  @TempDir Path directory;

  @Test
  void theZooKeeperExamplePublishesWithEpochsAndPointerInTheEnsemble() throws Exception {
    Path report = Files.writeString(directory.resolve("daily.csv"), "day,orders\n1,9\n");
    String root = "/readme-" + Long.toString(System.nanoTime(), 36);
    String connect = ZkTestStores.shared().connectString();
    String site = directory.resolve("site").toUri().toString();
    Class<?> example =
        ReadmeExamples.loadDocs()
            .containing("static void publishDaily(Path reportFile)")
            .replacing(
                Map.of(
                    "\"zk1:2181,zk2:2181,zk3:2181\"", "\"" + connect + "\"",
                    "\"/apps/reports/fenceline\"", "\"" + root + "\"",
                    "\"file:///srv/site\"", "\"" + site + "\""))
            .compile();

    ReadmeExamples.call(example, "publishDaily", report);

    try (ZkStore zk = ZkStore.builder(connect).rootPath(root).build();
        VfsBlobStore files = VfsBlobStore.open(site)) {
      StagedDestination reports =
          StagedDestination.builder(files, zk.pointerStore("reports")).build();
      try (InputStream published = reports.openVerified(ResourceId.of("reports/daily"))) {
        assertThat(new String(published.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("day,orders\n1,9\n");
      }
      assertThat(
              zk.pointerStore("reports")
                  .current(ResourceId.of("reports/daily"))
                  .orElseThrow()
                  .operation())
          .isEqualTo(OperationId.of("daily-2026-12-01"));
      assertThat(zk.leaseIssuer().status(ResourceId.of("reports/daily")).held()).isFalse();
    }
  }
}
