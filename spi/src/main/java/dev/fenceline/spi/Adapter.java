package dev.fenceline.spi;

import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * One configured adapter instance: the components it offers over one connection to its store.
 * Closing it releases the store's resources; the components must not be used afterwards.
 */
public interface Adapter extends AutoCloseable {

  /** The lease issuer this adapter offers, if any. */
  default Optional<LeaseIssuer> leaseIssuer() {
    return Optional.empty();
  }

  /**
   * The pointer store named {@code name} this adapter offers, if any; the name scopes its pointers
   * and operation records ({@link Destination#name()}).
   *
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  default Optional<PointerStore> pointerStore(String name) {
    return Optional.empty();
  }

  /**
   * The intent store named {@code name} this adapter offers, if any: a fenced record of intents for
   * calls to systems that cannot check epochs ({@link IntentStore}). Its name scopes its intents;
   * it shares the registered epochs with the adapter's other components on the same store.
   *
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  default Optional<IntentStore> intentStore(String name) {
    return Optional.empty();
  }

  /**
   * The fenced destination named {@code name} this adapter offers, if any: a {@link Destination}
   * that checks epochs natively ({@link Capability#NATIVE_EPOCH_CHECK}, {@link
   * Capability#OPERATION_RECORD}) and takes each change as the payload's bytes, read once and
   * streamed (the caller closes the stream). A configuration file publishes to it as a destination
   * of {@code type: fenced}. Its name scopes its operation records; it shares the registered epochs
   * with the adapter's other components on the same store.
   *
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  default Optional<Destination<InputStream>> destination(String name) {
    return Optional.empty();
  }

  /** The blob store this adapter offers, if any. */
  default Optional<BlobStore> blobStore() {
    return Optional.empty();
  }

  /**
   * For an adapter {@linkplain AdapterFactory#createForReading created for reading}: what opening
   * the store for writing ({@link AdapterFactory#create}) would still create or change in it, one
   * phrase each that follows "would", such as {@code create Fenceline's tables (schema v4)} or
   * {@code migrate Fenceline's schema from v2 to v4}. {@code fenceline doctor} prints them and
   * describes the store's destinations as it does for a store that does not exist yet. The default
   * is empty: nothing is known to be missing.
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
}
