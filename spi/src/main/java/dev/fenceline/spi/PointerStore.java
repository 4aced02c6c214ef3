package dev.fenceline.spi;

import java.util.List;
import java.util.Optional;

/**
 * A linearizable store that keeps one publish pointer per resource and swaps it as a fenced {@link
 * Destination}: in one atomic step it checks the epoch, checks the operation ID, sets the pointer
 * and records the operation with a receipt. The receipt's attributes are the pointer's attributes
 * plus {@code target}, the pointer target. Stores that cannot check epochs put their payloads under
 * staging keys and let a pointer store publish them (R6).
 *
 * <p>Implementations must report {@link Capability#NATIVE_EPOCH_CHECK}, {@link
 * Capability#OPERATION_RECORD} and {@link Capability#RESULT_LOOKUP}.
 */
public interface PointerStore extends Destination<Pointer> {

  /** Receipt attribute holding the pointer target. */
  String TARGET_ATTRIBUTE = "target";

  /**
   * Reads the current pointer of {@code resource} from the linearizable store (never a replica that
   * may be behind).
   *
   * @return the pointer, or empty if nothing was published yet
   * @throws StoreException if the store cannot be reached
   */
  Optional<PointerState> current(ResourceId resource);

  /**
   * Reads the newest pointers of {@code resource}, newest first, the current one included: every
   * applied swap is kept, so old targets can be audited, rolled back to, or found unreferenced by a
   * clean-up. Read from the linearizable store.
   *
   * @param limit how many versions at most, at least 1
   * @return up to {@code limit} pointer states, newest first; empty if nothing was published
   * @throws IllegalArgumentException if {@code limit} is below 1
   * @throws StoreException if the store cannot be reached
   */
  List<PointerState> history(ResourceId resource, int limit);
}
