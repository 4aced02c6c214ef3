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
package dev.fenceline.staging;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import java.io.InputStream;
import java.util.Optional;
import java.util.stream.Stream;

/** A blob store that forwards every call; tests override the calls they interfere with. */
class ForwardingBlobStore implements BlobStore {

  final BlobStore delegate;

  ForwardingBlobStore(BlobStore delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public BlobInfo put(BlobKey key, InputStream content) {
    return delegate.put(key, content);
  }

  @Override
  public InputStream open(BlobKey key) {
    return delegate.open(key);
  }

  @Override
  public Optional<BlobInfo> stat(BlobKey key) {
    return delegate.stat(key);
  }

  @Override
  public boolean delete(BlobKey key) {
    return delegate.delete(key);
  }

  @Override
  public Stream<BlobInfo> list(BlobKey prefix) {
    return delegate.list(prefix);
  }
}
