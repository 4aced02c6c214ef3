package dev.fenceline.spi;

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
}
