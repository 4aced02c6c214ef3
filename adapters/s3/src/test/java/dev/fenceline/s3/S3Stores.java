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

import dev.fenceline.s3.S3TestServer.Kind;
import java.util.EnumMap;
import java.util.Map;

/** Stores shared by the test classes of one JVM: one bucket per server kind and part size. */
final class S3Stores {

  /** S3's smallest part size, used as threshold and part size to get multipart uploads cheaply. */
  static final int FIVE_MIB = 5 * 1024 * 1024;

  private static final Map<Kind, S3Store> SMALL_PARTS = new EnumMap<>(Kind.class);
  private static final Map<Kind, S3Store> DEFAULTS = new EnumMap<>(Kind.class);

  private S3Stores() {}

  /**
   * A store under prefix {@code blobs} on its own bucket of {@code kind}, with 5 MiB threshold and
   * parts; kept open until the JVM exits (tests use fresh keys).
   */
  static synchronized S3Store smallParts(Kind kind) {
    return SMALL_PARTS.computeIfAbsent(
        kind, k -> builder(k).multipartThreshold(FIVE_MIB).partSize(FIVE_MIB).build());
  }

  /** As {@link #smallParts} with the default threshold and part size. */
  static synchronized S3Store defaults(Kind kind) {
    return DEFAULTS.computeIfAbsent(kind, k -> builder(k).build());
  }

  private static S3Store.Builder builder(Kind kind) {
    S3TestServer server = S3TestServer.get(kind);
    return server.storeBuilder(server.createBucket()).prefix("blobs");
  }
}
