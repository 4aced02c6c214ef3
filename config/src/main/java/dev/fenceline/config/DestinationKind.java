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

import dev.fenceline.spi.ConfigKey;
import java.util.List;

/**
 * A type of destination in the file ({@code type: staged}, {@code http}, {@code fenced}): the keys
 * it declares, which {@link DeclaredKeys} reads, checks, places and masks as it does a store's; the
 * checks that need the other sections; and how it is built. Found by name in {@link
 * DestinationKinds}.
 */
interface DestinationKind {

  /** The name written as {@code type:}. */
  String name();

  /** What it publishes to, in a few words, for hints and the reference. */
  String summary();

  /** Every key it takes besides {@code type}, each declared once. */
  List<ConfigKey> keys();

  /**
   * Keys whose value names an environment variable that holds a secret (its value is masked
   * everywhere, as a secret key's is).
   */
  default List<String> secretVariableKeys() {
    return List.of();
  }

  /**
   * The checks at load time that need no store opened: references to stores, the roles they are put
   * in, rules between keys.
   *
   * @throws ConfigFileException at the mistake
   */
  void check(DestinationKinds.Entry entry, KindContext context);

  /**
   * Builds the destination, opening its stores if needed.
   *
   * @param checkOnly for {@link FencelineConfig#check()}: describe it without what only sending
   *     needs (an http destination's token), never use it
   */
  ConfiguredDestination build(DestinationKinds.Entry entry, KindContext context, boolean checkOnly);

  /** The stores it writes through, the issuer's store last if it is not one of them. */
  List<String> stores(DestinationKinds.Entry entry, KindContext context);

  /** Why publishing to it would fail here besides its stores, for {@code fenceline doctor}. */
  default List<String> notUsable(DestinationKinds.Entry entry, KindContext context) {
    return List.of();
  }
}
