package dev.fenceline.config;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.tck.memory.InMemoryBlobStore;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An object store like S3, in memory: it offers a blob store, and pointer stores only if its
 * "probe" passes ({@code probe: pass}); {@code probe: fail} makes {@link Adapter#pointerStore}
 * throw as S3 does on an endpoint that ignores conditional writes.
 */
public final class FakeObjectStoreFactory implements AdapterFactory {

  @Override
  public String name() {
    return "fake-object-store";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, Set.of("probe"));
    boolean passes = config.required("probe", "pass").equals("pass");
    InMemoryBlobStore blobs = new InMemoryBlobStore(Clock.systemUTC());
    InMemoryPointerStore.Storage storage = new InMemoryPointerStore.Storage();
    return new Adapter() {
      @Override
      public Optional<BlobStore> blobStore() {
        return Optional.of(blobs);
      }

      @Override
      public Optional<PointerStore> pointerStore(String name) {
        if (!passes) {
          throw new ConfigurationException(
              "Cannot open the pointer store \""
                  + name
                  + "\": the endpoint ignored If-None-Match (use a JDBC pointer store)");
        }
        return Optional.of(
            new InMemoryPointerStore(storage, name, StepListener.NONE, Clock.systemUTC()));
      }

      @Override
      public void close() {}
    };
  }
}
