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

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UnsupportedCapabilityException;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TCK's destination suite on the planted-bug target with no bug: the baseline every planted bug
 * departs from by one rule is a correct locking destination.
 */
class PlantedDestinationContractTest extends DestinationContract<InputStream> {

  @TempDir Path dir;
  private PlantedBugTarget target;

  /** The bug under test; {@link PlantedBug#NONE} here. */
  PlantedBug bug() {
    return PlantedBug.NONE;
  }

  private PlantedBugTarget target() {
    if (target == null) {
      target = new PlantedBugTarget(dir, bug());
    }
    return target;
  }

  @Override
  protected Destination<InputStream> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    if (keys.isPresent()) {
      throw new UnsupportedCapabilityException(
          "The planted-bug destination cannot check token signatures (open it without keys)");
    }
    return target().destination(name, steps);
  }

  @Override
  protected boolean supportsTokenKeys() {
    return false;
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING; // BEGIN IMMEDIATE: the database's write lock
  }

  @Override
  protected InputStream change(ResourceId resource, String payload) {
    return new ByteArrayInputStream(payload.getBytes(UTF_8));
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return PlantedBugTarget.read(destination(StepListener.NONE), resource)
        .map(bytes -> new String(bytes, UTF_8));
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return PlantedBugTarget.applyCount(destination(StepListener.NONE), resource);
  }

  @Override
  protected LeaseIssuer issuer() {
    return target().issuer();
  }

  @Override
  protected void restartStore() {
    closeTarget(); // the next call opens the files again
  }

  @AfterEach
  void closeTarget() {
    if (target != null) {
      target.close();
      target = null;
    }
  }
}
