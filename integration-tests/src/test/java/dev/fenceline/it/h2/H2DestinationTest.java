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
package dev.fenceline.it.h2;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.tck.ConcurrencyControl;
import dev.fenceline.tck.DestinationContract;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The destination suite on the {@code h2-test} adapter, created from flat configuration through its
 * factory as a configuration file would create it: an adapter outside the built-in ones, built on
 * the public locking steps, passes the same contract as the built-in stores.
 */
class H2DestinationTest extends DestinationContract<InputStream> {

  @TempDir Path directory;
  private final InMemoryLeaseIssuer.Storage issuerStorage = new InMemoryLeaseIssuer.Storage();
  private H2Adapter adapter;

  private H2Adapter adapter() {
    if (adapter == null) {
      adapter =
          (H2Adapter)
              new H2AdapterFactory()
                  .create(
                      "fences",
                      Map.of(
                          "url", "jdbc:h2:" + directory.resolve("fence").toAbsolutePath(),
                          "password", "secret-password",
                          "lock-timeout", "40s"));
    }
    return adapter;
  }

  @AfterEach
  void closeAdapter() {
    if (adapter != null) {
      adapter.close();
    }
  }

  @Override
  protected Destination<InputStream> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return adapter().destination(name, steps, keys);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING; // SELECT ... FOR UPDATE on the resource's control row
  }

  @Override
  protected InputStream change(ResourceId resource, String payload) {
    return new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return tck().read(resource).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return tck().appliedCount(resource);
  }

  @Override
  protected LeaseIssuer issuer() {
    return new InMemoryLeaseIssuer(issuerStorage, Clock.systemUTC());
  }

  @Override
  protected void restartStore() {
    adapter().close();
    adapter = null;
  }

  private H2Destination tck() {
    return adapter().destination("tck", StepListener.NONE, Optional.empty());
  }
}
