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
package dev.fenceline.staging;

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.ResourceId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The sweep of a {@link StagedDestination}'s staging area: decides which staged blobs can never be
 * published and are not among the kept versions, and deletes them ({@link
 * StagedDestination#sweep()} states the three conditions).
 */
final class StagingSweep {

  private final BlobStore blobs;
  private final PointerStore pointers;
  private final StagingArea area;
  private final Duration grace;
  private final int keepVersions;
  private final Clock clock;

  StagingSweep(
      BlobStore blobs,
      PointerStore pointers,
      StagingArea area,
      Duration grace,
      int keepVersions,
      Clock clock) {
    this.blobs = blobs;
    this.pointers = pointers;
    this.area = area;
    this.grace = grace;
    this.keepVersions = keepVersions;
    this.clock = clock;
  }

  /** Sweeps the blobs listed under {@code listed}; with {@code only}, just that resource's. */
  SweepReport sweep(BlobKey listed, ResourceId only) {
    Instant cutoff = clock.instant().minus(grace);
    Map<ResourceId, List<StagedBlob>> byResource = new LinkedHashMap<>();
    try (Stream<BlobInfo> listing = blobs.list(listed)) {
      // A resource's area also lists the areas of resources below it (a/b under a): skipped.
      listing.forEach(
          info ->
              StagedBlob.parse(area.root(), info)
                  .filter(staged -> only == null || staged.resource().equals(only))
                  .ifPresent(
                      staged ->
                          byResource
                              .computeIfAbsent(staged.resource(), r -> new ArrayList<>())
                              .add(staged)));
    }
    List<BlobKey> deleted = new ArrayList<>();
    int kept = 0;
    for (Map.Entry<ResourceId, List<StagedBlob>> entry : byResource.entrySet()) {
      ResourceId resource = entry.getKey();
      // Read the epoch before the history: a swap after this read carries this epoch or a newer
      // one, so every older blob a pointer can name is already in the history read below.
      Epoch current = pointers.currentEpoch(resource);
      Set<String> keep = new HashSet<>();
      for (PointerState state : pointers.history(resource, keepVersions)) {
        keep.add(state.pointer().target());
      }
      for (StagedBlob staged : entry.getValue()) {
        boolean deletable =
            staged.epoch().isOlderThan(current)
                && !keep.contains(staged.info().key().value())
                && staged.info().lastModified().isBefore(cutoff);
        if (deletable && blobs.delete(staged.info().key())) {
          deleted.add(staged.info().key());
        } else {
          kept++;
        }
      }
    }
    return new SweepReport(deleted, kept);
  }
}
