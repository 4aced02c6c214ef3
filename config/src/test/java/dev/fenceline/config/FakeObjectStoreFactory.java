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
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.SupportsPointerStoreRecord;
import dev.fenceline.tck.memory.InMemoryBlobStore;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.io.InputStream;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;

/**
 * An object store like S3, in memory: it offers a blob store, and pointer stores only if its
 * "probe" passes ({@code probe: pass}); {@code probe: fail} makes {@link Adapter#pointerStore}
 * throw as S3 does on an endpoint that ignores conditional writes. Like S3 it records which pointer
 * store publishes each destination ({@link SupportsPointerStoreRecord}), and its own pointer store
 * records itself when it opens. Each adapter has its own bucket, but while a {@link
 * #sharedBucket()} is open every adapter created uses that one, as processes on one S3 bucket do.
 */
public final class FakeObjectStoreFactory implements AdapterFactory {

  /** What one "bucket" holds, shared by every adapter on it. */
  private record Bucket(
      InMemoryBlobStore blobs,
      InMemoryPointerStore.Storage pointers,
      ConcurrentMap<String, String> records) {
    Bucket() {
      this(
          new InMemoryBlobStore(Clock.systemUTC()),
          new InMemoryPointerStore.Storage(),
          new ConcurrentHashMap<>());
    }
  }

  private static volatile Bucket shared;

  /**
   * Until closed, every adapter created shares one bucket (blobs, pointers and records), as two
   * processes configured with one S3 bucket do.
   */
  static AutoCloseable sharedBucket() {
    shared = new Bucket();
    return () -> shared = null;
  }

  @Override
  public String name() {
    return "fake-object-store";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, Set.of("probe"));
    boolean passes = config.required("probe", "pass").equals("pass");
    Bucket sharing = shared;
    Bucket bucket = sharing != null ? sharing : new Bucket();
    RecordingBlobStore blobs = new RecordingBlobStore(bucket);
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
        PointerStore own =
            new InMemoryPointerStore(bucket.pointers(), name, StepListener.NONE, Clock.systemUTC());
        blobs.recordPointerStore(own);
        return Optional.of(own);
      }

      @Override
      public void close() {}
    };
  }

  /** The bucket's blobs, and its record of pointer stores (created once per name, like S3's). */
  private static final class RecordingBlobStore implements BlobStore, SupportsPointerStoreRecord {
    private final Bucket bucket;

    RecordingBlobStore(Bucket bucket) {
      this.bucket = bucket;
    }

    @Override
    public void recordPointerStore(PointerStore pointers) {
      String recorded = bucket.records().putIfAbsent(pointers.name(), pointers.storeId());
      if (recorded != null && !recorded.equals(pointers.storeId())) {
        throw new ConfigurationException(
            "Cannot publish destination \""
                + pointers.name()
                + "\" through pointer store "
                + pointers.storeId()
                + ": the bucket records pointer store "
                + recorded
                + " for it");
      }
    }

    @Override
    public BlobInfo put(BlobKey key, InputStream content) {
      return bucket.blobs().put(key, content);
    }

    @Override
    public InputStream open(BlobKey key) {
      return bucket.blobs().open(key);
    }

    @Override
    public Optional<BlobInfo> stat(BlobKey key) {
      return bucket.blobs().stat(key);
    }

    @Override
    public boolean delete(BlobKey key) {
      return bucket.blobs().delete(key);
    }

    @Override
    public Stream<BlobInfo> list(BlobKey prefix) {
      return bucket.blobs().list(prefix);
    }
  }
}
