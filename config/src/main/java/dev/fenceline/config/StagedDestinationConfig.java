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
package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AdapterConfig;
import java.time.Duration;
import java.util.Optional;

/**
 * The settings of a destination of {@code type: staged} (the default): files published to a store's
 * blob store through a fenced publish pointer ({@code dev.fenceline.staging.StagedDestination}).
 * Its keys are declared once, in {@code StagedKind}, and listed with their defaults in {@code
 * docs/configuration-reference.md}.
 *
 * @param store the store whose blob store holds the files
 * @param pointerStore the store whose pointer store publishes them, if set (else the store's own,
 *     or for a store without one, the issuer's store)
 * @param prefix the key prefix of the staging area, if set
 * @param sweepGrace how long an unpublished staged file is left alone
 * @param keepVersions published versions a sweep keeps
 * @param sweepAfterPublish whether {@code fenceline publish} and {@code run --publish} sweep after
 *     each successful publish
 */
public record StagedDestinationConfig(
    String store,
    Optional<String> pointerStore,
    Optional<String> prefix,
    Duration sweepGrace,
    int keepVersions,
    boolean sweepAfterPublish) {

  /** Validates the settings. */
  public StagedDestinationConfig {
    requireNonNull(store, "store is null");
    requireNonNull(pointerStore, "pointerStore is null");
    requireNonNull(prefix, "prefix is null");
    requireNonNull(sweepGrace, "sweepGrace is null");
    if (sweepGrace.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot use sweep grace " + sweepGrace + ": it is negative");
    }
    if (keepVersions < 1) {
      throw new IllegalArgumentException(
          "Cannot keep " + keepVersions + " versions: the current one is always kept (1 or more)");
    }
  }

  /** The settings read from a section checked against {@code StagedKind}. */
  static StagedDestinationConfig from(AdapterConfig settings) {
    return new StagedDestinationConfig(
        settings.required("store"),
        settings.optional("pointer-store"),
        settings.optional("prefix"),
        settings.duration("sweep-grace").orElseThrow(),
        Math.toIntExact(settings.number("keep-versions").orElseThrow()),
        settings.bool("sweep-after-publish").orElseThrow());
  }
}
