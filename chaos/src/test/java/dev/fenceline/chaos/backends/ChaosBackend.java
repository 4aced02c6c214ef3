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
package dev.fenceline.chaos.backends;

import dev.fenceline.chaos.StoreFaults;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A real store that a chaos run owns: started by the test (or {@link ServeBackend}) in the driver
 * JVM, described by a fenceline YAML file that the built-in configuration target opens in every
 * worker JVM, with the faults the driver can inject on it.
 *
 * <p>Every backend ends what it started in {@link #close()}: servers, child processes, proxies.
 */
public interface ChaosBackend extends AutoCloseable {

  /** {@return the backend's short name} e.g. {@code postgres}, {@code zookeeper} */
  String name();

  /**
   * Writes {@code dir/fenceline.yaml} describing the stores of this backend (absolute paths and
   * loopback endpoints only, so any working directory will do).
   *
   * @return the file written
   */
  Path writeConfig(Path dir);

  /** {@return the name of the destination a chaos run should publish to} */
  String destination();

  /** {@return the destinations the YAML declares, the main one first} */
  default List<String> destinations() {
    return List.of(destination());
  }

  /**
   * {@return the faults of this store; not closed by the caller (the backend closes them)} Empty
   * kinds where the store has no faults of its own.
   */
  StoreFaults storeFaults();

  /** {@return named endpoints of the running store, e.g. {@code jdbc -> jdbc:postgresql://...}} */
  Map<String, String> endpoints();

  /**
   * {@return options every JVM that opens the YAML needs} (e.g. the S3 credentials as system
   * properties); pass them to the chaos workers' JVM options.
   */
  default List<String> jvmOptions() {
    return List.of();
  }

  /** Stops everything the backend started; never throws a checked exception. */
  @Override
  void close();
}
