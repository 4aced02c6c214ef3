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
package dev.fenceline.chaos;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a {@link ChaosRun} produced.
 *
 * @param outDir the output directory
 * @param history the merged history ({@code outDir/history.jsonl}: META first, FINAL last)
 * @param operations the operations the workers invoked (INVOKE lines)
 * @param faultsByKind the faults injected, by kind ({@code pause}, {@code kill}, a store fault's
 *     kind); ends of faults ({@code resume}, {@code restart}, {@code heal}) are not counted
 */
public record ChaosResult(
    Path outDir, Path history, long operations, Map<String, Long> faultsByKind) {

  /** Copies the map. */
  public ChaosResult {
    faultsByKind = Map.copyOf(faultsByKind);
  }
}
