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
package dev.fenceline.tck.memory;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import java.util.ArrayList;
import java.util.List;

/** The reference stores' pointer history: kept oldest first, read newest first. */
final class PointerHistory {

  private PointerHistory() {}

  /**
   * {@code oldestFirst} with the state {@code change} makes appended: the next version, with the
   * token's epoch and the operation that applied it. A new list; the one given is not changed.
   */
  static List<PointerState> appended(
      List<PointerState> oldestFirst, FencingToken token, OperationId operation, Pointer change) {
    List<PointerState> longer = new ArrayList<>(oldestFirst);
    longer.add(
        new PointerState(
            token.resource(), change, token.epoch(), operation, oldestFirst.size() + 1L));
    return List.copyOf(longer);
  }

  /**
   * Up to {@code limit} states of {@code oldestFirst}, newest first.
   *
   * @throws IllegalArgumentException if {@code limit} is below 1
   */
  static List<PointerState> newestFirst(
      ResourceId resource, List<PointerState> oldestFirst, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException(
          "Cannot read the pointer history of " + resource + ": limit " + limit + " is below 1");
    }
    List<PointerState> newestFirst = new ArrayList<>();
    for (int i = oldestFirst.size() - 1; i >= 0 && newestFirst.size() < limit; i--) {
      newestFirst.add(oldestFirst.get(i));
    }
    return List.copyOf(newestFirst);
  }
}
