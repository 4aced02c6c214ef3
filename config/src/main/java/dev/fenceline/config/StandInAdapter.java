package dev.fenceline.config;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.Optional;

/**
 * The components a store of a known type would offer once created, for {@link
 * FencelineConfig#check()} only: {@code fenceline doctor} describes a destination on a store that
 * does not exist yet without creating it. The components answer {@code name()} (and a pointer
 * store's {@code storeId()}) so that destinations can be built and described; every other call
 * fails, since nothing was opened.
 */
final class StandInAdapter implements Adapter {

  private final String store;
  private final boolean database;

  private StandInAdapter(String store, boolean database) {
    this.store = store;
    this.database = database;
  }

  /**
   * A stand-in for store {@code store} of type {@code type}: a {@code jdbc} store offers a lease
   * issuer, pointer stores and intent stores, a {@code vfs} store a blob store; other types have
   * none (their components are not known without opening them).
   */
  static Optional<Adapter> of(String store, String type) {
    return switch (type) {
      case "jdbc" -> Optional.of(new StandInAdapter(store, true));
      case "vfs" -> Optional.of(new StandInAdapter(store, false));
      default -> Optional.empty();
    };
  }

  @Override
  public Optional<LeaseIssuer> leaseIssuer() {
    return database ? Optional.of(component(LeaseIssuer.class, "lease issuer")) : Optional.empty();
  }

  @Override
  public Optional<PointerStore> pointerStore(String name) {
    return database ? Optional.of(component(PointerStore.class, name)) : Optional.empty();
  }

  @Override
  public Optional<IntentStore> intentStore(String name) {
    return database ? Optional.of(component(IntentStore.class, name)) : Optional.empty();
  }

  @Override
  public Optional<BlobStore> blobStore() {
    return database ? Optional.empty() : Optional.of(component(BlobStore.class, "blob store"));
  }

  @Override
  public void close() {
    // Nothing was opened.
  }

  private <T> T component(Class<T> type, String name) {
    InvocationHandler handler =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "name" -> name;
              case "storeId" -> "not-created";
              case "toString" -> type.getSimpleName() + " of store " + store + " (not created)";
              case "hashCode" -> System.identityHashCode(proxy);
              case "equals" -> proxy == args[0];
              default ->
                  throw new IllegalStateException(
                      "Cannot use store "
                          + store
                          + ": fenceline doctor describes it without creating it (open the"
                          + " configuration's destination instead)");
            };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
