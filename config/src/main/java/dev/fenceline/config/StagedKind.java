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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StoreRole;
import dev.fenceline.spi.SupportsPointerStoreRecord;
import dev.fenceline.staging.StagedDestination;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code type: staged}, the default: files staged in a store's blob store and published by a
 * pointer store with an epoch check ({@link StagedDestination}). The pointer store is the one
 * {@code pointer-store:} names, else the store's own if it offers one that passes its checks, else
 * for a store that offers none the issuer's store.
 */
final class StagedKind implements DestinationKind {

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("store")
              .required()
              .example("reports-dir")
              .description("The store whose blob store holds the files.")
              .build(),
          ConfigKey.string("pointer-store")
              .description(
                  "The store whose pointer store publishes them; unset: the store's own if it"
                      + " passes its checks, else (a store without one) the issuer's store.")
              .build(),
          ConfigKey.string("prefix").description("The key prefix of the staging area.").build(),
          ConfigKey.duration("sweep-grace")
              .zeroAllowed()
              .defaultValue(Duration.ofHours(1))
              .description("How long a sweep leaves an unpublished staged file alone.")
              .build(),
          ConfigKey.integer("keep-versions", 1, 10_000)
              .defaultValue(3)
              .description("Published versions a sweep keeps, the current one included.")
              .build(),
          ConfigKey.bool("sweep-after-publish")
              .defaultValue(true)
              .description(
                  "fenceline publish and run --publish sweep the resource after each successful"
                      + " publish.")
              .build());

  @Override
  public String name() {
    return "staged";
  }

  @Override
  public String summary() {
    return "the default: files through a store's blob store";
  }

  @Override
  public List<ConfigKey> keys() {
    return KEYS;
  }

  /**
   * Each store can play its role, and the pointer store it will publish through keeps at least
   * {@code keep-versions} versions.
   */
  @Override
  public void check(DestinationKinds.Entry entry, KindContext context) {
    Section section = entry.section();
    StagedDestinationConfig config = StagedDestinationConfig.from(entry.settings());
    Stores stores = context.stores();
    stores.require(section, "store", config.store());
    config.pointerStore().ifPresent(store -> stores.require(section, "pointer-store", store));
    if (!stores.offers(config.store(), StoreRole.BLOB_STORE)) {
      throw noBlobStore(section, config.store(), context);
    }
    String pointerStore;
    if (config.pointerStore().isPresent()) {
      pointerStore = config.pointerStore().get();
      if (!stores.offers(pointerStore, StoreRole.POINTER_STORE)) {
        throw section.valueError(
            "pointer-store",
            "store " + context.describe(pointerStore) + " offers no pointer store",
            "name a store that can check epochs, of type "
                + context.types(StoreRole.POINTER_STORE));
      }
    } else if (stores.declaresRoles(config.store())
        && !stores.offers(config.store(), StoreRole.POINTER_STORE)) {
      if (context.issuerStore().equals(config.store())) {
        throw section.valueError(
            "store",
            "store "
                + context.describe(config.store())
                + " cannot publish: it offers no pointer store (it cannot check epochs)",
            "set pointer-store: to a store of type " + context.example(StoreRole.POINTER_STORE));
      }
      // The issuer's store, which issues leases and so offers pointer stores.
      pointerStore = context.issuerStore();
    } else {
      pointerStore = config.store();
    }
    checkKeepVersions(section, config, pointerStore, context);
    config
        .prefix()
        .ifPresent(
            prefix -> {
              try {
                BlobKey.of(prefix);
              } catch (IllegalArgumentException e) {
                throw section.valueError("prefix", e.getMessage(), "e.g. reports");
              }
            });
  }

  private static ConfigFileException noBlobStore(
      Section section, String store, KindContext context) {
    String type = context.stores().entry(store).type();
    List<String> serves = new ArrayList<>();
    if (context.stores().offers(store, StoreRole.POINTER_STORE)) {
      serves.add("pointer-store");
    }
    if (context.stores().offers(store, StoreRole.LEASE_ISSUER)) {
      serves.add("issuer");
    }
    return section.valueError(
        "store",
        "store " + context.describe(store) + " offers no blob store to stage files in",
        "point store at a "
            + context.alternatives(StoreRole.BLOB_STORE)
            + " store"
            + (serves.isEmpty()
                ? ""
                : "; a " + type + " store serves as " + String.join(" or ", serves)));
  }

  /** The store would prune pointer versions that the sweep and rollbacks still count on. */
  private static void checkKeepVersions(
      Section section, StagedDestinationConfig config, String pointerStore, KindContext context) {
    Optional<Map.Entry<String, Long>> kept = context.stores().pointerVersions(pointerStore);
    if (kept.isEmpty() || config.keepVersions() <= kept.get().getValue()) {
      return;
    }
    String key = kept.get().getKey();
    throw section.keyError(
        "keep-versions",
        "keep-versions "
            + config.keepVersions()
            + " is more than the "
            + kept.get().getValue()
            + " pointer versions store "
            + pointerStore
            + " keeps (its "
            + key
            + ")",
        "raise "
            + key
            + " of store "
            + pointerStore
            + " to at least "
            + config.keepVersions()
            + ", or lower keep-versions");
  }

  @Override
  public List<String> stores(DestinationKinds.Entry entry, KindContext context) {
    StagedDestinationConfig config = StagedDestinationConfig.from(entry.settings());
    List<String> result = new ArrayList<>();
    result.add(config.store());
    config.pointerStore().ifPresent(result::add);
    if (!result.contains(context.issuerStore())) {
      result.add(context.issuerStore());
    }
    return result;
  }

  @Override
  public ConfiguredDestination build(
      DestinationKinds.Entry entry, KindContext context, boolean checkOnly) {
    Section section = entry.section();
    String name = entry.name();
    StagedDestinationConfig config = StagedDestinationConfig.from(entry.settings());
    BlobStore blobs =
        context
            .adapter(config.store())
            .blobStore()
            .orElseThrow(() -> noBlobStore(section, config.store(), context));
    Publisher publisher = publisher(entry, config, context);
    checkKeepVersions(section, config, publisher.store(), context);
    if (blobs instanceof SupportsPointerStoreRecord records) {
      // Every process checks, before its first publish, that it publishes through the pointer
      // store recorded for this destination (or records it, if it is the first).
      try {
        records.recordPointerStore(publisher.pointers());
      } catch (ConfigurationException e) {
        String key = config.pointerStore().isPresent() ? "pointer-store" : "store";
        throw section.error(
            section.location(key),
            section.path(key),
            "destination "
                + name
                + " would publish through pointer store "
                + context.describe(publisher.store())
                + ", but another one is recorded for it: "
                + e.getMessage(),
            null,
            e);
      }
    }
    StagedDestination.Builder builder =
        StagedDestination.builder(blobs, publisher.pointers())
            .sweepGrace(config.sweepGrace())
            .keepVersions(config.keepVersions());
    config.prefix().ifPresent(prefix -> builder.prefix(BlobKey.of(prefix)));
    return new ConfiguredDestination(
        name,
        context.stores().entry(config.store()).type(),
        builder.build(),
        publisher.strategy(),
        context.scrub(publisher.why()),
        context.fenceline(),
        null,
        Optional.empty(),
        config.sweepAfterPublish());
  }

  /** The pointer store a staged destination publishes through, and why it was chosen. */
  private record Publisher(String store, PointerStore pointers, Strategy strategy, String why) {}

  private static Publisher publisher(
      DestinationKinds.Entry entry, StagedDestinationConfig config, KindContext context) {
    Section section = entry.section();
    String name = entry.name();
    if (config.pointerStore().isPresent()) {
      String other = config.pointerStore().get();
      return new Publisher(
          other,
          pointerStoreOf(section, "pointer-store", other, name, context),
          other.equals(config.store())
              ? Strategy.STAGED_WITH_OWN_POINTER_STORE
              : Strategy.STAGED_WITH_POINTER_STORE,
          "pointer-store: "
              + other
              + " is set; staged with pointer store "
              + context.describe(other));
    }
    return ownOrIssuers(entry, config, context);
  }

  /** The store's own pointer store if it offers one that passed its checks, else the issuer's. */
  private static Publisher ownOrIssuers(
      DestinationKinds.Entry entry, StagedDestinationConfig config, KindContext context) {
    Section section = entry.section();
    String name = entry.name();
    String type = context.stores().entry(config.store()).type();
    Optional<PointerStore> own;
    try {
      own = context.adapter(config.store()).pointerStore(name);
    } catch (ConfigurationException e) {
      // Never fall back on another here: the checks (S3's conditional-write probe) can come out
      // differently in another process, which would then publish the same destination through
      // the store's own pointer store while this one publishes through the issuer's, and neither
      // would fence the other's stale writers.
      throw section.valueError(
          "store",
          "store "
              + context.describe(config.store())
              + " cannot publish destination "
              + name
              + " through its own pointer store, which failed its checks: "
              + e.getMessage()
              + "; Fenceline does not pick another pointer store by itself, since another"
              + " process's checks may pass",
          "set pointer-store: to the store every process should publish "
              + name
              + " through, e.g. pointer-store: "
              + context.issuerStore()
              + "; the choice is recorded with the files and other choices are refused");
    }
    if (own.isPresent()) {
      return new Publisher(
          config.store(),
          own.get(),
          Strategy.STAGED_WITH_OWN_POINTER_STORE,
          type
              + " store "
              + config.store()
              + " offers a blob store and a pointer store that passed its checks; staged with"
              + " its own pointer store");
    }
    String problem = "it offers no pointer store (it cannot check epochs)";
    if (context.issuerStore().equals(config.store())) {
      throw section.valueError(
          "store",
          "store " + context.describe(config.store()) + " cannot publish: " + problem,
          "set pointer-store: to a store of type " + context.example(StoreRole.POINTER_STORE));
    }
    return new Publisher(
        context.issuerStore(),
        pointerStoreOf(context.root(), "issuer", context.issuerStore(), name, context),
        Strategy.STAGED_WITH_POINTER_STORE,
        type
            + " store "
            + config.store()
            + ": "
            + problem
            + "; staged with pointer store "
            + context.describe(context.issuerStore())
            + ", the issuer's store");
  }

  private static PointerStore pointerStoreOf(
      Section section, String key, String store, String name, KindContext context) {
    try {
      return context
          .adapter(store)
          .pointerStore(name)
          .orElseThrow(
              () ->
                  section.valueError(
                      key,
                      "store " + context.describe(store) + " offers no pointer store",
                      "name a store that can check epochs, e.g. one of type "
                          + context.example(StoreRole.POINTER_STORE)));
    } catch (ConfigFileException e) {
      throw e;
    } catch (ConfigurationException e) {
      throw section.error(
          section.location(key),
          section.path(key),
          "the pointer store of "
              + context.describe(store)
              + " failed its checks: "
              + e.getMessage(),
          null,
          e);
    }
  }
}
