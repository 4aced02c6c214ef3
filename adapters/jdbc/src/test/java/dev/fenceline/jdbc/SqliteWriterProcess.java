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
