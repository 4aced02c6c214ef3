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

/**
 * An operation needs a capability the destination does not have: {@link Destination#lookup} without
 * {@link Capability#RESULT_LOOKUP}, a {@link SupportsEpochReset reset} the underlying store cannot
 * do, or {@link TokenKeys} given to a destination that cannot check signatures. Nothing changed.
 */
public class UnsupportedCapabilityException extends FencelineException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message, in the project's error format
   */
  public UnsupportedCapabilityException(String message) {
    super(message);
  }
}
