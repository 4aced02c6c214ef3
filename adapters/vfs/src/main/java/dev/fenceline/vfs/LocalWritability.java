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
package dev.fenceline.vfs;

import dev.fenceline.spi.LocalWriteProblem;
import dev.fenceline.spi.StorePreflight;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The preflight of a store in a local directory: see {@link VfsBlobStore.Builder#preflight()}. */
final class LocalWritability {

  private LocalWritability() {}

  static StorePreflight preflight(Path base) {
    Path absolute = base.toAbsolutePath().normalize();
    Path existing = LocalWriteProblem.nearestExisting(absolute);
    if (existing != null && !Files.isDirectory(existing)) {
      return new StorePreflight(
          true,
          List.of(),
          List.of("not a directory: " + existing + " (point the uri at a directory)"));
    }
    Optional<LocalWriteProblem> problem = LocalWriteProblem.of(absolute);
    if (problem.isPresent()) {
      return new StorePreflight(true, List.of(), List.of(problem.get().finding()));
    }
    if (absolute.equals(existing)) {
      return StorePreflight.ready();
    }
    return new StorePreflight(true, List.of("directory " + absolute), List.of());
  }
}
