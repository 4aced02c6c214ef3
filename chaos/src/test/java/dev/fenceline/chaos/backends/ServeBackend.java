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

import java.io.IOException;
import java.nio.file.Path;

/**
 * Starts one backend for long runs through the CLI: {@code java -cp <test classpath>
 * dev.fenceline.chaos.backends.ServeBackend postgres|zookeeper|s3|http DIR} writes {@code
 * DIR/fenceline.yaml}, prints {@code endpoint <name> <value>} and {@code jvm-option <option>}
 * lines, then {@code ready DIR/fenceline.yaml}, and runs until its stdin closes; then it stops the
 * backend and exits.
 */
public final class ServeBackend {

  private ServeBackend() {}

  /** Starts the named backend; see the class comment. */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println(
          "usage: ServeBackend postgres|zookeeper|s3|http DIR (runs until stdin closes)");
      System.exit(2);
    }
    Path dir = Path.of(args[1]).toAbsolutePath();
    try (ChaosBackend backend = start(args[0], dir)) {
      Path yaml = backend.writeConfig(dir);
      backend.endpoints().forEach((k, v) -> System.out.println("endpoint " + k + " " + v));
      backend.jvmOptions().forEach(o -> System.out.println("jvm-option " + o));
      System.out.println("ready " + yaml);
      System.out.flush();
      System.in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }

  /**
   * Starts the backend named {@code name} with its data under {@code dir/<name>}.
   *
   * @throws IllegalArgumentException if the name is none of postgres, zookeeper, s3, http
   */
  public static ChaosBackend start(String name, Path dir) {
    Path data = dir.resolve(name);
    return switch (name) {
      case "postgres" -> PostgresBackend.start(data);
      case "zookeeper" -> ZooKeeperBackend.start(data);
      case "s3" -> S3Backend.start(data);
      case "http" -> HttpBackend.start(data);
      default ->
          throw new IllegalArgumentException(
              "Cannot start backend '" + name + "': use postgres, zookeeper, s3 or http");
    };
  }
}
