package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * Facts about a stored blob.
 *
 * @param key the key
 * @param size the size in bytes
 * @param lastModified when the store last modified it, by the store's clock
 */
public record BlobInfo(BlobKey key, long size, Instant lastModified) {

  /**
   * Validates the facts.
   *
   * @param key the blob's key
   * @param size the size in bytes
   * @param lastModified when the blob was last modified
   */
  public BlobInfo {
    requireNonNull(key, "key is null");
    requireNonNull(lastModified, "lastModified is null");
    if (size < 0) {
      throw new IllegalArgumentException("blob size " + size + " of " + key + " is negative");
    }
  }
}
