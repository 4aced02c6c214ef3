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
package dev.fenceline.chaos.planted;

import dev.fenceline.chaos.ChaosTarget;
import dev.fenceline.core.Fenceline;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.WriteOutcome;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The target of {@link PlantedBugTargetFactory}: the JDBC adapter's SQLite issuer on {@code
 * dir/issuer.db} (correct), and a destination with {@code bug} planted on {@code
 * dir/destination.db} ({@link PlantedDestination}) or, for {@link PlantedBug#UNCONDITIONAL_CAS},
 * {@code dir/cas.db} ({@link CasDestination}).
 */
final class PlantedBugTarget implements ChaosTarget {

  /** The name of the destination the chaos workers publish to. */
  static final String NAME = "planted";

  private final PlantedBug bug;
  private final Path dir;
  private final JdbcStore issuerStore;
  private final LeaseIssuer issuer;
  private final SqliteFile db;
  private final Destination<InputStream> destination;

  private final long prepareMillis;

  PlantedBugTarget(Path dir, PlantedBug bug) {
    this(dir, bug, 0);
  }

  PlantedBugTarget(Path dir, PlantedBug bug, long prepareMillis) {
    this.bug = bug;
    this.prepareMillis = prepareMillis;
    this.dir = dir;
    this.db =
        bug == PlantedBug.UNCONDITIONAL_CAS
            ? SqliteCasStore.open(dir.resolve("cas.db"))
            : PlantedDestination.open(dir.resolve("destination.db"));
    this.issuerStore = JdbcStore.sqlite(dir.resolve("issuer.db"));
    this.issuer = issuerStore.leaseIssuer();
    this.destination = destination(NAME, StepListener.NONE);
  }

  /** The bug this target carries. */
  PlantedBug bug() {
    return bug;
  }

  /** The CAS store's file (used by {@link PlantedBug#UNCONDITIONAL_CAS}). */
  Path dirOfCas() {
    return dir.resolve("cas.db");
  }

  /** A view of the same destination store under {@code name}, reporting to {@code steps}. */
  Destination<InputStream> destination(String name, StepListener steps) {
    return bug == PlantedBug.UNCONDITIONAL_CAS
        ? new CasDestination(db, name, steps, false, prepareMillis)
        : new PlantedDestination(db, name, steps, bug);
  }

  @Override
  public LeaseIssuer issuer() {
    return issuer;
  }

  @Override
  public Destination<InputStream> destination() {
    return destination;
  }

  @Override
  public WriteOutcome publish(
      Fenceline fenceline, FencingToken token, OperationId operation, byte[] payload) {
    if (prepareMillis > 0 && bug != PlantedBug.UNCONDITIONAL_CAS) {
      prepare(token, operation); // the CAS target spends it on the replace's way to the store
    }
    return fenceline.publish(token, destination, operation, new ByteArrayInputStream(payload));
  }

  /**
   * The application's work between deciding to publish and reaching the destination (rendering,
   * uploading): a pause that lands here resumes a writer whose lease may have passed to a newer
   * owner, the stale writer the destination must reject.
   */
  private void prepare(FencingToken token, OperationId operation) {
    try {
      Thread.sleep(prepareMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "Interrupted while preparing operation "
              + operation
              + " of "
              + token.resource()
              + " (nothing was sent to the destination)",
          e);
    }
  }

  @Override
  public boolean canRead() {
    return true;
  }

  @Override
  public Optional<byte[]> read(ResourceId resource) {
    return read(destination, resource);
  }

  /** The payload {@code destination} (one of this target's) published for {@code resource}. */
  static Optional<byte[]> read(Destination<InputStream> destination, ResourceId resource) {
    if (destination instanceof CasDestination cas) {
      return cas.read(resource);
    }
    return ((PlantedDestination) destination).read(resource);
  }

  /** How many payloads {@code destination} (one of this target's) applied to {@code resource}. */
  static long applyCount(Destination<InputStream> destination, ResourceId resource) {
    if (destination instanceof CasDestination cas) {
      return cas.applyCount(resource);
    }
    return ((PlantedDestination) destination).applyCount(resource);
  }

  @Override
  public void close() {
    issuerStore.close();
  }
}
