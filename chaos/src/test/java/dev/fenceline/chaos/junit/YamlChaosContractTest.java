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
package dev.fenceline.chaos.junit;

import dev.fenceline.chaos.ChaosTargetFactory;
import dev.fenceline.chaos.ConfigTargetFactory;
import dev.fenceline.chaos.StoreFaults;
import dev.fenceline.chaos.faults.SqliteLockFault;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The chaos contract as docs/writing-an-adapter.md shows it: a destination from a YAML file (here
 * staged local files with a SQLite pointer store; an adapter author names their own store type),
 * opened in every worker process by {@link ConfigTargetFactory}, with the SQLite file's lock as the
 * store fault. Its inherited test must pass: every check, under pauses, kills and held locks.
 */
class YamlChaosContractTest extends ChaosContract {

  @Override
  protected Class<? extends ChaosTargetFactory> targetFactory() {
    return ConfigTargetFactory.class; // opens config.destination(destination) from the YAML
  }

  @Override
  protected Map<String, String> settings(Path dir) {
    String yaml =
        """
        stores:
          main:
            type: jdbc
            url: jdbc:sqlite:%s
          files:
            type: vfs
            uri: %s
        issuer: main
        destinations:
          reports:
            store: files
        """
            .formatted(dir.resolve("fenceline.db"), dir.resolve("published").toUri());
    try {
      Path config = Files.writeString(dir.resolve("fenceline.yaml"), yaml);
      return Map.of("config", config.toString(), "destination", "reports");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected Optional<StoreFaults> storeFaults(Path dir) {
    return Optional.of(new SqliteLockFault(dir.resolve("fenceline.db"))); // holds its lock 1-3 s
  }
}
