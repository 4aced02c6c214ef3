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
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.StoreRole;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.memory.InMemoryPointerStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A third party's adapter as the tests see one, {@code memory-ledger}: an in-memory store that
 * offers only a fenced destination ({@link StoreRole#DESTINATION}), whose entries are the published
 * files' text, each write comparing the epoch and recording the operation in one step (the TCK's
 * in-memory pointer store does that part). It declares its keys, one of them secret. Registered
 * through {@code third-party/META-INF/services}, outside the tests' class path root, and loaded
 * with {@link #registry()}, as a jar added to the class path would be.
 */
public final class LedgerAdapterFactory implements AdapterFactory {

  /** Every ledger's storage, by its name: adapters naming the same ledger share it. */
  private static final Map<String, InMemoryPointerStore.Storage> LEDGERS =
      new ConcurrentHashMap<>();

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("ledger")
              .required()
              .example("books")
              .description("The in-memory ledger; stores naming the same one share it.")
              .build(),
          ConfigKey.string("api-key")
              .secret()
              .description("A credential of the ledger service; never shown.")
              .build(),
          ConfigKey.integer("max-entry-bytes", 1, 1_000_000)
              .defaultValue(65_536)
              .description("The largest entry the ledger takes.")
              .build());

  /** The adapters on the tests' class path, and this one. */
  static dev.fenceline.core.AdapterRegistry registry() {
    java.net.URL root = LedgerAdapterFactory.class.getResource("/third-party/");
    return dev.fenceline.core.AdapterRegistry.load(
        new java.net.URLClassLoader(
            new java.net.URL[] {root}, LedgerAdapterFactory.class.getClassLoader()));
  }

  /** What ledger {@code name} holds for {@code resource}: the current entry's text. */
  static Optional<String> entry(String ledger, String destination, ResourceId resource) {
    return new InMemoryPointerStore(
            LEDGERS.computeIfAbsent(ledger, name -> new InMemoryPointerStore.Storage()),
            destination,
            StepListener.NONE,
            Clock.systemUTC())
        .current(resource)
        .map(state -> state.pointer().target());
  }

  @Override
  public String name() {
    return "memory-ledger";
  }

  @Override
  public List<ConfigKey> configKeys() {
    return KEYS;
  }

  @Override
  public Set<StoreRole> roles() {
    return Set.of(StoreRole.DESTINATION);
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(this, instanceName, values);
    InMemoryPointerStore.Storage storage =
        LEDGERS.computeIfAbsent(
            config.required("ledger"), name -> new InMemoryPointerStore.Storage());
    long maxBytes = config.number("max-entry-bytes").orElseThrow();
    return Adapter.builder(() -> {})
        .destinations(
            name ->
                new Entries(
                    new InMemoryPointerStore(storage, name, StepListener.NONE, Clock.systemUTC()),
                    maxBytes))
        .build();
  }

  /** A fenced destination of text entries over an in-memory pointer store. */
  private record Entries(InMemoryPointerStore records, long maxBytes)
      implements Destination<InputStream> {

    @Override
    public String name() {
      return records.name();
    }

    @Override
    public Set<Capability> capabilities() {
      return records.capabilities();
    }

    @Override
    public RegisterOutcome register(FencingToken token) {
      return records.register(token);
    }

    @Override
    public WriteOutcome write(FencingToken token, OperationId operation, InputStream change) {
      byte[] bytes;
      try {
        bytes = change.readNBytes((int) maxBytes + 1);
      } catch (IOException e) {
        throw new StoreException("Cannot read the entry for " + operation + ": " + e, e);
      }
      if (bytes.length > maxBytes) {
        throw new StoreException(
            "Cannot write entry " + operation + ": it is longer than " + maxBytes + " bytes", null);
      }
      return records.write(token, operation, Pointer.to(new String(bytes, StandardCharsets.UTF_8)));
    }

    @Override
    public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
      return records.lookup(resource, operation);
    }

    @Override
    public Epoch currentEpoch(ResourceId resource) {
      return records.currentEpoch(resource);
    }
  }
}
