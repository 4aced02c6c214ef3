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
package dev.fenceline.spring.autoconfigure;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.ResourceId;
import dev.fenceline.spring.FencedRunListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * Counts {@link dev.fenceline.spring.Fenced} calls as {@code fenceline.fenced.runs}, tagged {@code
 * resource} and {@code outcome} ({@code completed}, {@code failed}, {@code lost}, {@code skipped}).
 */
public final class FencedRunCounter implements FencedRunListener {

  /** The counter's name. */
  public static final String NAME = "fenceline.fenced.runs";

  private final MeterRegistry registry;

  /** Counts into {@code registry}. */
  public FencedRunCounter(MeterRegistry registry) {
    this.registry = requireNonNull(registry, "registry is null");
  }

  @Override
  public void ended(ResourceId resource, Method method, Outcome outcome) {
    Counter.builder(NAME)
        .description("Calls of @Fenced methods: run, skipped (lease held elsewhere), or lease lost")
        .tag("resource", resource.value())
        .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }
}
