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
package dev.fenceline.jdbc;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A worker process for {@link SqliteKillTest}: writes {@code v2} with epoch 34 and, when the write
 * reaches the given step, prints {@code PAUSED} and waits on standard input until it is killed.
 */
public final class SqliteWriterProcess {

  private SqliteWriterProcess() {}

  /** Arguments: database file, step name. */
  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    FencingStep pauseAt = FencingStep.valueOf(args[1]);
    try (JdbcStore store = JdbcStore.sqlite(file)) {
      store
          .pointerStore(
              "reports",
              (step, token, operation) -> {
                if (step == pauseAt) {
                  System.out.println("PAUSED");
                  System.out.flush();
                  try {
                    System.in.read();
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                }
              })
          .write(
              new FencingToken(
                  "test-issuer", ResourceId.of("nightly-report"), Epoch.of(34), "worker-b"),
              OperationId.of("v2"),
              Pointer.to("version 2"));
    }
  }
}
