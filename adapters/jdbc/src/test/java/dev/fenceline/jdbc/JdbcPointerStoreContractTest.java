package dev.fenceline.jdbc;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.DestinationContract;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;

/** Runs the destination suite on the pointer store ("publish a named value"). */
abstract class JdbcPointerStoreContractTest extends DestinationContract<Pointer> {

  private JdbcStore store;

  abstract TestDatabase database();

  private JdbcStore store() {
    if (store == null) {
      store = database().openStore();
    }
    return store;
  }

  @Override
  protected Destination<Pointer> destination(StepListener steps) {
    return store().pointerStore(steps);
  }

  @Override
  protected Pointer change(ResourceId resource, String payload) {
    return Pointer.to(payload);
  }

  @Override
  protected Optional<String> published(ResourceId resource) {
    return store().pointerStore().current(resource).map(state -> state.pointer().target());
  }

  @Override
  protected long applyCount(ResourceId resource) {
    return store().pointerStore().current(resource).map(PointerState::version).orElse(0L);
  }

  @Override
  protected LeaseIssuer issuer() {
    return store().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store().close();
    store = null;
    database().restart();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }
}
