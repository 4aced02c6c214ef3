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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What opening a store would need, found by {@link AdapterFactory#preflight} without creating or
 * changing anything: what opening it would create, and why it could not be written. {@code
 * fenceline doctor} prints it and opens only stores that are {@link #readyToOpen()}.
 *
 * @param checked false if the adapter cannot check without opening the store (then the store is
 *     opened as before, and opening may create what it needs)
 * @param wouldCreate what opening (or the first write) creates, such as {@code directory
 *     /srv/reports}; not a problem
 * @param problems why the store could not be written, one reason each, such as {@code not writable:
 *     /srv (read-only file system)}
 */
public record StorePreflight(boolean checked, List<String> wouldCreate, List<String> problems) {

  private static final StorePreflight NOT_CHECKED = new StorePreflight(false, List.of(), List.of());

  /**
   * Copies the lists; an unchecked preflight has no findings.
   *
   * @param checked whether the store was checked
   * @param wouldCreate what opening the store would create, if anything
   * @param problems the problems found
   */
  public StorePreflight {
    wouldCreate = List.copyOf(requireNonNull(wouldCreate, "wouldCreate is null"));
    problems = List.copyOf(requireNonNull(problems, "problems is null"));
    if (!checked && !(wouldCreate.isEmpty() && problems.isEmpty())) {
      throw new IllegalArgumentException(
          "Cannot report findings of a preflight that was not checked");
    }
  }

  /**
   * The adapter cannot check without opening: the caller opens the store as usual.
   *
   * @return a preflight that did not check
   */
  public static StorePreflight notChecked() {
    return NOT_CHECKED;
  }

  /**
   * Checked, and opening changes nothing.
   *
   * @return a preflight that found nothing to create and no problem
   */
  public static StorePreflight ready() {
    return new StorePreflight(true, List.of(), List.of());
  }

  /**
   * {@return true if the store can be opened now without creating anything (or was not checked)}
   */
  public boolean readyToOpen() {
    return wouldCreate.isEmpty() && problems.isEmpty();
  }
}
