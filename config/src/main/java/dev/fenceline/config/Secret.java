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

/**
 * A secret configuration value (a password). {@link #toString()} never shows it, so records that
 * hold one can be printed.
 *
 * @param value the secret itself; pass it on only to what needs it
 */
public record Secret(String value) {

  /** Validates the secret. */
  public Secret {
    requireNonNull(value, "value is null");
  }

  /** Always {@code ****}. */
  @Override
  public String toString() {
    return Secrets.MASK;
  }
}
