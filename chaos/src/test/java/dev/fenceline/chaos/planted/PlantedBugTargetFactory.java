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
import dev.fenceline.chaos.ChaosTargetFactory;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Opens a {@link PlantedBugTarget}: a correct SQLite issuer and a destination with one planted bug,
 * shared by the worker processes of one run through SQLite files in a directory.
 *
 * <p>Settings: {@code bug} ({@code none | no-epoch-check | check-after-write | unconditional-cas |
 * receipt-before-change | retry-reapplied}, see {@link PlantedBug}) and {@code dir} (the directory
 * of the run's database files, created if missing); optionally {@code prepare-ms} ({@link
 * #PREPARE_MS}) and {@code warm-up} ({@link #WARM_UP}).
 */
public final class PlantedBugTargetFactory implements ChaosTargetFactory {

  /** The setting naming the planted bug. */
  public static final String BUG = "bug";

  /** The setting naming the directory of the database files. */
  public static final String DIR = "dir";

  /**
   * The optional setting of how many milliseconds a publish spends before it reaches the
   * destination (default 0): the application's work between deciding and writing, where a pause
   * turns a worker into a stale writer. The unconditional-cas target spends it instead on each
   * replace request's way to the store, where a pause cuts a write between its read and its
   * replace.
   */
  public static final String PREPARE_MS = "prepare-ms";

  /**
   * The optional setting {@code warm-up} ({@code true | false}, default false): before the target
   * is handed out, one lease, register, write, lookup and read on a resource of its own ({@code
   * warm-up-<random>}, never one of the run's {@code r<i>}), so that a worker JVM loads the SQLite
   * driver and the issuer's and destination's code before it says ready, not during its first
   * acquire (seconds on a loaded machine, a large part of a short run).
   */
  public static final String WARM_UP = "warm-up";

  /** For worker processes, which instantiate the factory by class name. */
  public PlantedBugTargetFactory() {}

  @Override
  public ChaosTarget open(Map<String, String> settings) {
    String bugSetting = settings.get(BUG);
    if (bugSetting == null) {
      throw new ConfigurationException(
          "Cannot open the planted-bug target: setting " + BUG + " is missing (e.g. bug=none)");
    }
    PlantedBug bug;
    try {
      bug = PlantedBug.of(bugSetting);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(e.getMessage(), e);
    }
    String dirSetting = settings.get(DIR);
    if (dirSetting == null || dirSetting.isBlank()) {
      throw new ConfigurationException(
          "Cannot open the planted-bug target: setting "
              + DIR
              + " is missing (name a directory shared by the run's workers, e.g. dir=target/run)");
    }
    Path dir = Path.of(dirSetting);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new ConfigurationException(
          "Cannot open the planted-bug target: directory "
              + dir
              + " cannot be created ("
              + e
              + "; name a writable directory in setting "
              + DIR
              + ")",
          e);
    }
    long prepareMillis;
    try {
      prepareMillis = Long.parseLong(settings.getOrDefault(PREPARE_MS, "0"));
    } catch (NumberFormatException e) {
      prepareMillis = -1;
    }
    if (prepareMillis < 0) {
      throw new ConfigurationException(
          "Cannot open the planted-bug target: setting "
              + PREPARE_MS
              + " is \""
              + settings.get(PREPARE_MS)
              + "\", not a number of milliseconds of 0 or more (e.g. prepare-ms=40)");
    }
    String warmUp = settings.getOrDefault(WARM_UP, "false");
    if (!warmUp.equals("true") && !warmUp.equals("false")) {
      throw new ConfigurationException(
          "Cannot open the planted-bug target: setting "
              + WARM_UP
              + " is \""
              + warmUp
              + "\", not true or false (e.g. warm-up=true)");
    }
    PlantedBugTarget target = new PlantedBugTarget(dir, bug, prepareMillis);
    if (warmUp.equals("true")) {
      warmUp(target);
    }
    return target;
  }

  /** One round on a resource of its own, with the target's own issuer and destination. */
  private static void warmUp(PlantedBugTarget target) {
    ResourceId resource = ResourceId.of("warm-up-" + UUID.randomUUID());
    LeaseIssuer issuer = target.issuer();
    Lease lease =
        issuer
            .tryAcquire(resource, "warm-up", Duration.ofSeconds(30))
            .orElseThrow(
                () -> new IllegalStateException("The warm-up resource " + resource + " is held"));
    Destination<InputStream> destination = target.destination();
    destination.register(lease.token());
    OperationId operation = OperationId.of("warm-up");
    destination.write(
        lease.token(),
        operation,
        new ByteArrayInputStream("op=warm-up\n".getBytes(StandardCharsets.UTF_8)));
    destination.lookup(resource, operation);
    destination.currentEpoch(resource);
    target.read(resource);
    issuer.release(lease);
  }
}
