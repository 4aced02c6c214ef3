package dev.fenceline.junit;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Your own {@link Destination} with a journal of the writes it received, so that {@link
 * FencelineAssertions} can say which worker's write it rejected. Every call goes to your
 * destination unchanged; the wrapper adds nothing to its checks and reports no {@link
 * dev.fenceline.spi.FencingStep}s. To pause a worker inside your destination's atomic step, give
 * the destination the lab's {@link FencelineLab#pausePoints()} as its {@link
 * dev.fenceline.spi.StepListener} when you create it (for example {@code
 * JdbcStore.destination(name, lab.pausePoints())}).
 *
 * <p>The wrapper is a plain {@link Destination}: optional interfaces of yours ({@code
 * SupportsEpochReset}, {@code PointerStore}) are not visible through it; call them on your
 * destination. Thread-safe if your destination is.
 *
 * @param <C> the kind of change your destination applies
 */
public final class RecordingDestination<C> implements JournaledDestination<C> {

  private final Destination<C> destination;
  private final WriteJournal<C> journal = new WriteJournal<>();

  /** Records the writes that go to {@code destination}. */
  public RecordingDestination(Destination<C> destination) {
    this.destination = requireNonNull(destination, "destination is null");
  }

  /** The destination this one records. */
  public Destination<C> recorded() {
    return destination;
  }

  @Override
  public List<RecordedWrite<C>> writes() {
    return journal.writes();
  }

  @Override
  public String name() {
    return destination.name();
  }

  @Override
  public Set<Capability> capabilities() {
    return destination.capabilities();
  }

  @Override
  public Guarantee guarantee() {
    return destination.guarantee();
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return destination.register(token);
  }

  /** Your destination's {@link Destination#write}, recorded with its outcome or failure. */
  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, C change) {
    return journal.record(
        token, operation, change, () -> destination.write(token, operation, change));
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return destination.lookup(resource, operation);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return destination.currentEpoch(resource);
  }

  @Override
  public String toString() {
    return "RecordingDestination[" + destination + "]";
  }
}
