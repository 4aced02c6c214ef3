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

import java.util.Map;

/**
 * Opens a {@link ChaosTarget} from string settings. Implementations are public classes with a
 * public no-argument constructor: worker processes instantiate them by class name.
 */
public interface ChaosTargetFactory {

  /**
   * Opens the target.
   *
   * @param settings the settings the run was given (for the built-in configuration target: {@code
   *     config}, the YAML file, and {@code destination}, the destination's name)
   * @return the opened target
   * @throws dev.fenceline.spi.ConfigurationException if the settings are wrong, naming the fix
   */
  ChaosTarget open(Map<String, String> settings);
}
