package dev.fenceline.tck.memory;

import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import java.util.ArrayList;
import java.util.List;

/** The reference stores' pointer history: kept oldest first, read newest first. */
final class PointerHistory {

  private PointerHistory() {}

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
