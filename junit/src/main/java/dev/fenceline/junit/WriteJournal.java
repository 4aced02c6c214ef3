package dev.fenceline.junit;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** The journal of a {@link JournaledDestination}: records each write with how it ended. */
final class WriteJournal<C> {

  private final List<RecordedWrite<C>> writes = new CopyOnWriteArrayList<>();

  /** Runs {@code write} and records it with its outcome or with what it threw (thrown on). */
  WriteOutcome record(
      FencingToken token, OperationId operation, C change, Supplier<WriteOutcome> write) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    WriteOutcome outcome;
    try {
      outcome = write.get();
    } catch (RuntimeException | Error e) {
      writes.add(new RecordedWrite<>(token, operation, change, Optional.empty(), Optional.of(e)));
      throw e;
    }
    writes.add(
        new RecordedWrite<>(token, operation, change, Optional.of(outcome), Optional.empty()));
    return outcome;
  }

  List<RecordedWrite<C>> writes() {
    return List.copyOf(writes);
  }
}
