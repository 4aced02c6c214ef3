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
package dev.fenceline.s3;

import dev.fenceline.jdbc.OpenStore;
import dev.fenceline.jdbc.SqliteDatabase;
import dev.fenceline.jdbc.TestDatabase;
import dev.fenceline.s3.S3TestServer.Kind;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.staging.StagedDestinationContract;
import dev.fenceline.tck.ConcurrencyControl;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The staged destination suite with blobs in an {@link S3BlobStore} (5 MiB parts) and the pointer
 * in a JDBC pointer store on SQLite: the mode for endpoints without conditional writes.
 */
abstract class StagedS3BlobsOnSqliteTest extends StagedDestinationContract {

  @TempDir Path directory;
  private SqliteDatabase database;
  private final OpenStore store = new OpenStore(this::database);

  /** The S3 server the blobs live on. */
  abstract Kind kind();

  private TestDatabase database() {
    if (database == null) {
      database = new SqliteDatabase(directory);
    }
    return database;
  }

  private S3Store s3() {
    return S3Stores.smallParts(kind());
  }

  @Override
  protected BlobStore blobStore() {
    return s3().blobStore();
  }

  @Override
  protected PointerStore pointerStore(String name, StepListener steps, Optional<TokenKeys> keys) {
    return store.get(keys).pointerStore(name, steps);
  }

  @Override
  protected ConcurrencyControl concurrencyControl() {
    return ConcurrencyControl.LOCKING; // the JDBC pointer store's
  }

  @Override
  protected void overwriteBlob(BlobKey key, byte[] bytes) {
    S3Location location = s3().s3Location();
    S3TestServer.get(kind())
        .admin()
        .putObject(
            b -> b.bucket(location.bucket()).key(location.objectKey(key)),
            RequestBody.fromBytes(bytes));
  }

  @Override
  protected LeaseIssuer issuer() {
    return store.get().leaseIssuer();
  }

  @Override
  protected void restartStore() {
    store.restartDatabase();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }
}
