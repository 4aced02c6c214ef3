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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One configured adapter instance: the components it offers over one connection to its store.
 * Closing it releases the store's resources; the components must not be used afterwards. A factory
 * whose store hands out its components can assemble the adapter with {@link #builder}.
 */
public interface Adapter extends AutoCloseable {

  /**
   * Starts an adapter assembled from the components of one store, closed by {@code close}.
   *
   * <pre>{@code
   * S3Store store = builder.build();
   * return Adapter.builder(store::close)
   *     .blobStore(store.blobStore())
   *     .pointerStores(store::pointerStore)
   *     .build();
   * }</pre>
   *
   * @param close releases the store's resources; {@link #close()} calls it
   * @return a builder for the adapter
   */
  static Builder builder(Runnable close) {
    return new Builder(close);
  }

  /** {@return the lease issuer this adapter offers, if any} */
  default Optional<LeaseIssuer> leaseIssuer() {
    return Optional.empty();
  }

  /**
   * {@return the pointer store named {@code name} this adapter offers, if any; the name scopes its
   * pointers and operation records ({@link Destination#name()})}
   *
   * @param name the store's name
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  default Optional<PointerStore> pointerStore(String name) {
    return Optional.empty();
  }

  /**
   * {@return the intent store named {@code name} this adapter offers, if any: a fenced record of
   * intents for calls to systems that cannot check epochs ({@link IntentStore})} Its name scopes
   * its intents; it shares the registered epochs with the adapter's other components on the same
   * store.
   *
   * @param name the store's name
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  default Optional<IntentStore> intentStore(String name) {
    return Optional.empty();
  }

  /**
   * {@return the fenced destination named {@code name} this adapter offers, if any: a {@link
   * Destination} that checks epochs natively ({@link Capability#NATIVE_EPOCH_CHECK}, {@link
   * Capability#OPERATION_RECORD}) and takes each change as the payload's bytes, read once and
   * streamed (the caller closes the stream)} A configuration file publishes to it as a destination
   * of {@code type: fenced}. Its name scopes its operation records; it shares the registered epochs
   * with the adapter's other components on the same store.
   *
   * @param name the store's name
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  default Optional<Destination<InputStream>> destination(String name) {
    return Optional.empty();
  }

  /** {@return the blob store this adapter offers, if any} */
  default Optional<BlobStore> blobStore() {
    return Optional.empty();
  }

  /**
   * For an adapter {@linkplain AdapterFactory#createForReading created for reading}: what opening
   * the store for writing ({@link AdapterFactory#create}) would still create or change in it, one
   * phrase each that follows "would", such as {@code create Fenceline's tables (schema v5)} or
   * {@code migrate Fenceline's schema from v4 to v5}. {@code fenceline doctor} prints them and
   * describes the store's destinations as it does for a store that does not exist yet. The default
   * is empty: nothing is known to be missing.
   *
   * @return the changes opening the store would make; empty if none, or if not created for reading
   */
  default List<String> wouldChange() {
    return List.of();
  }

  /**
   * Releases the store's resources.
   *
   * @throws StoreException if releasing failed
   */
  @Override
  void close();

  /** Assembles an {@link Adapter} from a store's components; see {@link Adapter#builder}. */
  final class Builder {
    private final Runnable close;
    private LeaseIssuer leaseIssuer;
    private Function<String, PointerStore> pointerStores;
    private Function<String, IntentStore> intentStores;
    private Function<String, Destination<InputStream>> destinations;
    private BlobStore blobStore;

    private Builder(Runnable close) {
      this.close = requireNonNull(close, "close is null");
    }

    /**
     * The lease issuer the adapter offers.
     *
     * @param issuer the lease issuer
     * @return this builder
     */
    public Builder leaseIssuer(LeaseIssuer issuer) {
      this.leaseIssuer = requireNonNull(issuer, "issuer is null");
      return this;
    }

    /**
     * The pointer store of each name ({@link Adapter#pointerStore}).
     *
     * @param byName the stores by name
     * @return this builder
     */
    public Builder pointerStores(Function<String, PointerStore> byName) {
      this.pointerStores = requireNonNull(byName, "byName is null");
      return this;
    }

    /**
     * The intent store of each name ({@link Adapter#intentStore}).
     *
     * @param byName the stores by name
     * @return this builder
     */
    public Builder intentStores(Function<String, IntentStore> byName) {
      this.intentStores = requireNonNull(byName, "byName is null");
      return this;
    }

    /**
     * The fenced destination of each name ({@link Adapter#destination}).
     *
     * @param byName the stores by name
     * @return this builder
     */
    public Builder destinations(Function<String, Destination<InputStream>> byName) {
      this.destinations = requireNonNull(byName, "byName is null");
      return this;
    }

    /**
     * The blob store the adapter offers.
     *
     * @param store the blob store
     * @return this builder
     */
    public Builder blobStore(BlobStore store) {
      this.blobStore = requireNonNull(store, "store is null");
      return this;
    }

    /** {@return the adapter: it offers what was given here and nothing else} */
    public Adapter build() {
      LeaseIssuer issuer = leaseIssuer;
      Function<String, PointerStore> pointers = pointerStores;
      Function<String, IntentStore> intents = intentStores;
      Function<String, Destination<InputStream>> fenced = destinations;
      BlobStore blobs = blobStore;
      Runnable closing = close;
      return new Adapter() {
        @Override
        public Optional<LeaseIssuer> leaseIssuer() {
          return Optional.ofNullable(issuer);
        }

        @Override
        public Optional<PointerStore> pointerStore(String name) {
          return pointers == null ? Optional.empty() : Optional.of(pointers.apply(name));
        }

        @Override
        public Optional<IntentStore> intentStore(String name) {
          return intents == null ? Optional.empty() : Optional.of(intents.apply(name));
        }

        @Override
        public Optional<Destination<InputStream>> destination(String name) {
          return fenced == null ? Optional.empty() : Optional.of(fenced.apply(name));
        }

        @Override
        public Optional<BlobStore> blobStore() {
          return Optional.ofNullable(blobs);
        }

        @Override
        public void close() {
          closing.run();
        }
      };
    }
  }
}
