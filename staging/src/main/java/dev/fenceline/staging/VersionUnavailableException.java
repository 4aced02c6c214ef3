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
package dev.fenceline.staging;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;

/**
 * The version of a resource a reader asked for cannot be served, though the stores answered:
 * nothing is published yet, there is no such version, its blob is missing (swept, or deleted
 * outside Fenceline) or has another size than was published, or its pointer names no staged blob of
 * this resource. Nothing changed ({@link #outcomeUnknown()} is false). A store that failed is a
 * plain {@link StoreException} instead, so a caller can tell "not there" from "could not ask".
 */
public final class VersionUnavailableException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final transient ResourceId resource;

  /** Creates the exception; the message names the version and the fix. */
  public VersionUnavailableException(String message, ResourceId resource) {
    this(message, resource, null);
  }

  /** As above, with the cause (a malformed key, say). */
  public VersionUnavailableException(String message, ResourceId resource, Throwable cause) {
    super(message, cause, false);
    this.resource = requireNonNull(resource, "resource is null");
  }

  /** The resource whose version cannot be served. */
  public ResourceId resource() {
    return resource;
  }
}
