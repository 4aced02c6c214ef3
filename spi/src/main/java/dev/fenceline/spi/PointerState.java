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

/**
 * The current publish pointer of a resource.
 *
 * @param resource the resource
 * @param pointer what the pointer names
 * @param epoch the epoch of the write that set it
 * @param operation the operation that set it
 * @param version how many times the pointer was swapped, counting this one (starts at 1, grows by
 *     one per applied operation; readers can use it to notice a change)
 */
public record PointerState(
    ResourceId resource, Pointer pointer, Epoch epoch, OperationId operation, long version) {

  /**
   * Validates the state.
   *
   * @param resource the resource
   * @param pointer the pointer
   * @param epoch the epoch
   * @param operation the operation ID
   * @param version the version
   */
  public PointerState {
    requireNonNull(resource, "resource is null");
    requireNonNull(pointer, "pointer is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(operation, "operation is null");
    if (version < 1) {
      throw new IllegalArgumentException("pointer version " + version + " is not positive");
    }
  }
}
