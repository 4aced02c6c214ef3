package dev.fenceline.spi;

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

  /** The pointer store this adapter offers, if any. */
  default Optional<PointerStore> pointerStore() {
    return Optional.empty();
  }

  /** The blob store this adapter offers, if any. */
  default Optional<BlobStore> blobStore() {
    return Optional.empty();
  }

  /**
   * Releases the store's resources.
   *
   * @throws StoreException if releasing failed
   */
  @Override
  void close();
}
