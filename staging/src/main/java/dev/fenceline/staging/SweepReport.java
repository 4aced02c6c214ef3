package dev.fenceline.staging;

import dev.fenceline.spi.BlobKey;
import java.util.List;

/**
 * What one {@link StagedDestination#sweep()} did.
 *
 * @param deleted staged blobs deleted (unreferenced, older than the grace period, from an epoch
 *     older than the resource's current one)
 * @param kept staged blobs kept
 */
public record SweepReport(List<BlobKey> deleted, int kept) {

  /** Copies the list. */
  public SweepReport {
    deleted = List.copyOf(deleted);
  }
}
