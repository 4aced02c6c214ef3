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
package dev.fenceline.chaos.check;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a history holds, for the report.
 *
 * @param operations per function ({@code write}, ...) the number of operations per outcome ({@code
 *     Applied}, ...; {@code Unknown} for info lines and invocations without completion, {@code
 *     Error} for fail lines)
 * @param faults the injected faults per kind (the FAULT lines that start a fault)
 * @param takeovers acquisitions of a resource whose previous holder had not released its lease
 * @param staleRejections register and write operations rejected as stale
 * @param unknownsLanded operations with an unknown-outcome write that the final lookup found (and
 *     no write of them was acknowledged as applied)
 * @param unknownsNotLanded operations with an unknown-outcome write that the final lookup reports
 *     as never applied, or that an acknowledged write applied
 * @param unknownsUnresolved operations with an unknown-outcome write and no final lookup answer
 * @param linearizabilityMillis the time the linearizability search took
 */
public record Counts(
    Map<String, Map<String, Long>> operations,
    Map<String, Long> faults,
    long takeovers,
    long staleRejections,
    long unknownsLanded,
    long unknownsNotLanded,
    long unknownsUnresolved,
    long linearizabilityMillis) {

  /** Copies the maps (sorted). */
  public Counts {
    TreeMap<String, Map<String, Long>> ops = new TreeMap<>();
    operations.forEach((f, m) -> ops.put(f, Collections.unmodifiableMap(new TreeMap<>(m))));
    operations = Collections.unmodifiableMap(ops);
    faults = Collections.unmodifiableMap(new TreeMap<>(faults));
  }

  /** {@return the number of operations of {@code f} with {@code outcome}, 0 if none} */
  public long operations(String f, String outcome) {
    return operations.getOrDefault(f, Map.of()).getOrDefault(outcome, 0L);
  }

  /** {@return the number of operations in total} */
  public long totalOperations() {
    return operations.values().stream()
        .flatMap(m -> m.values().stream())
        .mapToLong(Long::longValue)
        .sum();
  }
}
