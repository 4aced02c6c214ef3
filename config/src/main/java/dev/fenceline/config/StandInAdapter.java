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
package dev.fenceline.config;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StoreRole;
import java.io.InputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.Set;

/**
 * The components a store would offer once created, as its factory declares them ({@link
 * dev.fenceline.spi.AdapterFactory#roles()}), for {@link FencelineConfig#check()} only: {@code
 * fenceline doctor} describes a destination on a store that does not exist yet without creating it.
 * The components answer {@code name()} (a pointer store's {@code storeId()}, a fenced destination's
 * capabilities: those every fenced destination has) so that destinations can be built and
 * described; every other call fails, since nothing was opened.
 */
final class StandInAdapter implements Adapter {

  /** What every fenced destination checks ({@link Adapter#destination}). */
  private static final Set<Capability> FENCED =
      Set.of(Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD);

  private final String store;
  private final Set<StoreRole> roles;

  private StandInAdapter(String store, Set<StoreRole> roles) {
    this.store = store;
    this.roles = Set.copyOf(roles);
  }

  /**
   * A stand-in for store {@code store} whose factory declares {@code roles}; empty if it declares
   * none (its components are not known without opening it).
   */
  static Optional<Adapter> of(String store, Set<StoreRole> roles) {
    return roles.isEmpty() ? Optional.empty() : Optional.of(new StandInAdapter(store, roles));
  }

  @Override
  public Optional<LeaseIssuer> leaseIssuer() {
    return offered(StoreRole.LEASE_ISSUER, LeaseIssuer.class, "lease issuer");
  }

  @Override
  public Optional<PointerStore> pointerStore(String name) {
    return offered(StoreRole.POINTER_STORE, PointerStore.class, name);
  }

  @Override
  public Optional<IntentStore> intentStore(String name) {
    return offered(StoreRole.INTENT_STORE, IntentStore.class, name);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Optional<Destination<InputStream>> destination(String name) {
    return offered(StoreRole.DESTINATION, Destination.class, name)
        .map(destination -> (Destination<InputStream>) destination);
  }

  @Override
  public Optional<BlobStore> blobStore() {
    return offered(StoreRole.BLOB_STORE, BlobStore.class, "blob store");
  }

  private <T> Optional<T> offered(StoreRole role, Class<T> type, String name) {
    return roles.contains(role) ? Optional.of(component(type, name)) : Optional.empty();
  }

  @Override
  public void close() {
    // Nothing was opened.
  }

  private <T> T component(Class<T> type, String name) {
    boolean fenced = type == Destination.class;
    InvocationHandler handler =
        (proxy, method, args) ->
            switch (method.getName()) {
              case "name" -> name;
              case "storeId" -> "not-created";
              case "capabilities" -> fenced ? FENCED : refuse();
              case "guarantee" -> fenced ? Guarantee.of(FENCED) : refuse();
              case "toString" -> type.getSimpleName() + " of store " + store + " (not created)";
              case "hashCode" -> System.identityHashCode(proxy);
              case "equals" -> proxy == args[0];
              default -> refuse();
            };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private Object refuse() {
    throw new IllegalStateException(
        "Cannot use store "
            + store
            + ": fenceline doctor describes it without creating it (open the configuration's"
            + " destination instead)");
  }
}
