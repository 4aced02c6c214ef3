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
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.StoreRole;
import java.io.InputStream;
import java.util.List;

/**
 * {@code type: fenced}: files published to a store's own fenced destination ({@link
 * dev.fenceline.spi.Adapter#destination}), which compares the epoch, applies the file and records
 * the operation in one step. The store must be of a type that offers one ({@link
 * StoreRole#DESTINATION}).
 */
final class FencedKind implements DestinationKind {

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("store")
              .required()
              .example("ledger")
              .description("The store whose fenced destination takes the files.")
              .build());

  @Override
  public String name() {
    return "fenced";
  }

  @Override
  public String summary() {
    return "a store that checks epochs itself";
  }

  @Override
  public List<ConfigKey> keys() {
    return KEYS;
  }

  @Override
  public void check(DestinationKinds.Entry entry, KindContext context) {
    String store = entry.settings().required("store");
    context.stores().require(entry.section(), "store", store);
    if (!context.stores().offers(store, StoreRole.DESTINATION)) {
      throw noDestination(entry, store, context);
    }
  }

  private static ConfigFileException noDestination(
      DestinationKinds.Entry entry, String store, KindContext context) {
    return entry
        .section()
        .valueError(
            "store",
            "store " + context.describe(store) + " offers no fenced destination",
            "point store at a store of a type that offers one: "
                + context.types(StoreRole.DESTINATION)
                + "; or publish through a staged destination");
  }

  @Override
  public List<String> stores(DestinationKinds.Entry entry, KindContext context) {
    String store = entry.settings().required("store");
    return store.equals(context.issuerStore())
        ? List.of(store)
        : List.of(store, context.issuerStore());
  }

  @Override
  public ConfiguredDestination build(
      DestinationKinds.Entry entry, KindContext context, boolean checkOnly) {
    String store = entry.settings().required("store");
    Destination<InputStream> destination;
    try {
      destination =
          context
              .adapter(store)
              .destination(entry.name())
              .orElseThrow(() -> noDestination(entry, store, context));
    } catch (ConfigFileException e) {
      throw e;
    } catch (ConfigurationException e) {
      throw entry
          .section()
          .error(
              entry.section().location("store"),
              entry.section().path("store"),
              "the fenced destination of "
                  + context.describe(store)
                  + " failed its checks: "
                  + e.getMessage(),
              null,
              e);
    }
    String type = context.stores().entry(store).type();
    return new ConfiguredDestination(
        entry.name(),
        type,
        destination,
        Strategy.FENCED_NATIVELY,
        context.scrub(
            type
                + " store "
                + store
                + " offers a fenced destination: each write compares the epoch, applies the file"
                + " and records the operation in one step at the store"),
        context.fenceline(),
        null);
  }
}
