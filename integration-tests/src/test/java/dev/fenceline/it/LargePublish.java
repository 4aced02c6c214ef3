package dev.fenceline.it;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.tck.Payloads;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;

/**
 * Publishes a generated payload of the given size through a staged destination (local files,
 * SQLite) and reads it back through the verifying reader. Run in a child JVM with a small heap by
 * {@link LargePublishTest}; prints what it measured.
 */
public final class LargePublish {

  private LargePublish() {}

  /** Arguments: working directory, payload size in bytes, seed. */
  public static void main(String[] args) throws Exception {
    Path directory = Path.of(args[0]);
    long size = Long.parseLong(args[1]);
    long seed = Long.parseLong(args[2]);
    ResourceId resource = ResourceId.of("reports/large");
    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("fenceline.db"));
        VfsBlobStore blobs = VfsBlobStore.open(directory.resolve("blobs").toUri().toString())) {
      StagedDestination staged =
          StagedDestination.builder(blobs, store.pointerStore("reports")).build();
      long started = System.nanoTime();
      WriteOutcome outcome =
          staged.write(
              new FencingToken(store.id(), resource, Epoch.of(1), "large-publisher"),
              OperationId.of("large-1"),
              Payloads.generated(size, seed));
      long published = System.nanoTime();
      String read;
      try (InputStream in = staged.open(resource)) {
        read = Payloads.sha256(in);
      }
      long verified = System.nanoTime();
      System.out.println("OUTCOME " + (outcome instanceof Applied ? "Applied" : outcome));
      System.out.println(
          "PUBLISHED_SHA256 "
              + ((Applied) outcome).receipt().attribute(StagedDestination.SHA256_ATTRIBUTE).get());
      System.out.println("READ_SHA256 " + read);
      System.out.println("PUBLISH_MS " + (published - started) / 1_000_000);
      System.out.println("READ_MS " + (verified - published) / 1_000_000);
      System.out.println("MAX_HEAP_BYTES " + Runtime.getRuntime().maxMemory());
      System.out.println("PEAK_HEAP_USED_BYTES " + peakHeapUsed());
    }
  }

  private static long peakHeapUsed() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
