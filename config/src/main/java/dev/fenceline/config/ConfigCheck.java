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

import dev.fenceline.spi.StorePreflight;
import java.util.List;

/**
 * What {@link FencelineConfig#check()} found, creating nothing: what {@code fenceline doctor}
 * prints.
 *
 * @param stores every store, in file order, with what opening it would create or why it could not
 *     be written
 * @param destinations every destination's row, in file order
 */
public record ConfigCheck(List<StoreCheck> stores, List<DestinationReport> destinations) {

  /** Copies the lists. */
  public ConfigCheck {
    stores = List.copyOf(requireNonNull(stores, "stores is null"));
    destinations = List.copyOf(requireNonNull(destinations, "destinations is null"));
  }

  /**
   * One store's preflight.
   *
   * @param name the store's name in the file
   * @param type its adapter type
   * @param preflight what opening it would create, and why it could not be written
   * @param wouldChange for a store that was opened for reading: what opening it for writing (as
   *     {@code publish} does) would still create or change in it, such as {@code create Fenceline's
   *     tables (schema v5)} ({@link dev.fenceline.spi.Adapter#wouldChange()}); empty if nothing
   */
  public record StoreCheck(
      String name, String type, StorePreflight preflight, List<String> wouldChange) {
    /** Validates the fields and copies the list. */
    public StoreCheck {
      requireNonNull(name, "name is null");
      requireNonNull(type, "type is null");
      requireNonNull(preflight, "preflight is null");
      wouldChange = List.copyOf(requireNonNull(wouldChange, "wouldChange is null"));
    }

    /** A store check with nothing found by opening it. */
    public StoreCheck(String name, String type, StorePreflight preflight) {
      this(name, type, preflight, List.of());
    }
  }
}
