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

import dev.fenceline.core.Fenceline;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.StoreRole;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a {@link DestinationKind} needs of its configuration file.
 *
 * @param stores the file's stores
 * @param issuerStore the name of the {@code issuer:} store
 * @param root the file's top-level section
 * @param fenceline the file's {@link Fenceline}, built on first use
 */
record KindContext(Stores stores, String issuerStore, Section root, Supplier<Fenceline> fenceline) {

  /** Where {@code ${VAR}} references and tokens are read. */
  Function<String, String> environment() {
    return root.source().environment();
  }

  /** {@code text} with the file's secrets masked. */
  String scrub(String text) {
    return root.source().secrets().scrub(text);
  }

  /** The adapter of {@code store}, opened if needed. */
  Adapter adapter(String store) {
    return stores.adapter(store, root.source().secrets());
  }

  /** {@code name (type)}, for messages. */
  String describe(String store) {
    return stores.describe(store);
  }

  /** The types that play {@code role}, such as {@code jdbc, zookeeper}, for hints. */
  String types(StoreRole role) {
    List<String> types = stores.typesOffering(role);
    return types.isEmpty() ? "(none on the class path)" : String.join(", ", types);
  }

  /** The types that play {@code role} as alternatives, such as {@code vfs or s3}. */
  String alternatives(StoreRole role) {
    List<String> types = stores.typesOffering(role);
    if (types.size() < 2) {
      return types.isEmpty() ? "(none on the class path)" : types.get(0);
    }
    return String.join(", ", types.subList(0, types.size() - 1))
        + " or "
        + types.get(types.size() - 1);
  }

  /** A type that plays {@code role}, for examples. */
  String example(StoreRole role) {
    List<String> types = stores.typesOffering(role);
    return types.isEmpty() ? "..." : types.get(0);
  }
}
