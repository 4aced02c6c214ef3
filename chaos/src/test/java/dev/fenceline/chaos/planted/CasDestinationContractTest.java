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

import dev.fenceline.jdbc.JdbcStore;
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
 * The TCK's destination suite on {@link CasDestination} over the conditional {@link
 * SqliteCasStore}: the unconditional-cas bug differs from this passing destination only in the
 * store's compare.
 */
class CasDestinationContractTest extends DestinationContract<InputStream> {

  @TempDir Path dir;
  private JdbcStore issuerStore;
  private SqliteFile db;

  @Override
  protected Destination<InputStream> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    if (keys.isPresent()) {
      throw new UnsupportedCapabilityException(
          "The planted-bug destination cannot check token signatures (open it without keys)");
    }
    if (db == null) {
      db = SqliteCasStore.open(dir.resolve("cas.db"));
    }
    return new CasDestination(db, name, steps, true);
  }

  @Override
  protected boolean supportsTokenKeys() {
    return false;
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.COMPARE_AND_SWAP;
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
    if (issuerStore == null) {
      issuerStore = JdbcStore.sqlite(dir.resolve("issuer.db"));
    }
    return issuerStore.leaseIssuer();
  }

  @Override
  protected void restartStore() {
    close(); // the next call opens the files again
  }

  @AfterEach
  void close() {
    if (issuerStore != null) {
      issuerStore.close();
      issuerStore = null;
    }
    db = null;
  }
}
