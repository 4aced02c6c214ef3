package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A natively fenced destination in a SQL database: your {@link JdbcChange} runs in the same
 * transaction that locks the resource's control row, checks the epoch and records the operation ID
 * (R3). Get one from {@link JdbcStore#destination()}. Guarantee: {@link
 * dev.fenceline.spi.Guarantee#FENCED} for changes made through the given connection; anything the
 * change does outside the database (a mail, an HTTP call) is not covered.
 */
public final class JdbcDestination implements Destination<JdbcChange> {

  static final Set<Capability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              Capability.NATIVE_EPOCH_CHECK,
              Capability.OPERATION_RECORD,
              Capability.RESULT_LOOKUP));

  private final FencedWrite fencedWrite;

  JdbcDestination(FencedWrite fencedWrite) {
    this.fencedWrite = fencedWrite;
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return fencedWrite.register(token);
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, JdbcChange change) {
    requireNonNull(change, "change is null");
    return fencedWrite.write(
        token, operation, connection -> change.apply(connection, token, operation));
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return fencedWrite.lookup(resource, operation);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return fencedWrite.currentEpoch(resource);
  }
}
