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
package dev.fenceline.chaos.runs;

import static java.util.Objects.requireNonNull;

import dev.fenceline.chaos.StoreFaults;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The store faults of several sources as one: a backend's own (restart, kill, leader-kill, API
 * faults) and the proxy and lock faults of {@link dev.fenceline.chaos.faults.ConfigStoreFaults} on
 * its YAML. {@link #inject} hands a kind to the part that has it; {@link #heal} heals every part;
 * {@link #close} closes only the parts this owns (the backend closes its own).
 */
final class CombinedStoreFaults implements StoreFaults {

  private final Map<String, StoreFaults> byKind = new LinkedHashMap<>();
  private final List<StoreFaults> parts;
  private final List<StoreFaults> owned;

  /**
   * @param borrowed parts closed by somebody else (the backend's own faults)
   * @param owned parts this closes
   * @throws IllegalArgumentException if two parts have the same kind
   */
  CombinedStoreFaults(List<StoreFaults> borrowed, List<StoreFaults> owned) {
    this.parts = new ArrayList<>(borrowed);
    this.parts.addAll(owned);
    this.owned = List.copyOf(owned);
    for (StoreFaults part : parts) {
      for (String kind : part.kinds()) {
        StoreFaults before = byKind.put(kind, part);
        if (before != null) {
          throw new IllegalArgumentException(
              "Cannot combine store faults " + before + " and " + part + ": both have " + kind);
        }
      }
    }
  }

  @Override
  public List<String> kinds() {
    return List.copyOf(byKind.keySet());
  }

  @Override
  public String inject(String kind, Random random) throws Exception {
    StoreFaults part = byKind.get(requireNonNull(kind, "kind is null"));
    if (part == null) {
      throw new IllegalArgumentException(
          "Cannot inject store fault \"" + kind + "\": use one of " + kinds());
    }
    return part.inject(kind, random);
  }

  @Override
  public void heal() throws Exception {
    StoreFaults.healAll(parts);
  }

  @Override
  public void close() {
    owned.forEach(StoreFaults::close);
  }

  @Override
  public String toString() {
    return "CombinedStoreFaults" + kinds();
  }
}
