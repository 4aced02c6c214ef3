package dev.fenceline.junit;

import dev.fenceline.spi.Destination;
import java.util.List;

/**
 * A destination that keeps a journal of every write it received, for assertions ({@link
 * FencelineAssertions#assertThat(JournaledDestination)}).
 *
 * @param <C> the kind of change the destination applies
 */
public interface JournaledDestination<C> extends Destination<C> {

  /** Every write received so far, in the order the writes ended. */
  List<RecordedWrite<C>> writes();
}
