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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import java.io.InputStream;
import java.time.Clock;
import java.util.Optional;

/** One configured {@code h2-test} database: fenced destinations of payloads on it. */
public final class H2Adapter implements Adapter {

  private final H2Store store;

  H2Adapter(H2Store store) {
    this.store = requireNonNull(store, "store is null");
  }

  @Override
  public Optional<Destination<InputStream>> destination(String name) {
    return Optional.of(destination(name, StepListener.NONE, Optional.empty()));
  }

  /**
   * The destination named {@code name}, reporting its steps to {@code steps}, refusing tokens not
   * signed with {@code keys} if present.
   */
  public H2Destination destination(String name, StepListener steps, Optional<TokenKeys> keys) {
    return new H2Destination(store, name, steps, Clock.systemUTC(), keys);
  }

  @Override
  public void close() {
    store.close();
  }
}
