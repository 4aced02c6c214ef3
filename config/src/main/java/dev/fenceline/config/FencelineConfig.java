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

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.core.Fenceline;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.StorePreflight;
import dev.fenceline.spi.StoreRole;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A Fenceline configuration file, loaded with one call; gives the same objects the builders give.
 *
 * <pre>{@code
 * try (FencelineConfig config = FencelineConfig.load(Path.of("fenceline.yaml"))) {
 *   Fenceline fenceline = config.fenceline();
 *   ConfiguredDestination reports = config.destination("reports");
 *   Optional<HeldLease> acquired = fenceline.tryAcquire(ResourceId.of("nightly-report"));
 *   if (acquired.isEmpty()) {
 *     return; // another worker holds the lease: it publishes, not this one
 *   }
 *   try (HeldLease lease = acquired.get()) {
 *     fenceline.register(lease, reports.destination());
 *     WriteOutcome outcome = reports.publish(lease.token(), OperationId.of("report-2026-10-27"), file);
 *   }
 * }
 * }</pre>
 *
 * <p>{@link #load} reads and checks the whole file (syntax, keys, types, durations, environment
 * variables, store and adapter references, keys that do not apply to a store's kind, stores in
 * roles their type cannot play, every destination's own checks) without connecting to anything.
 * Each store section is checked against the keys its adapter declares ({@link
 * AdapterFactory#configKeys()}) and by the adapter itself ({@link AdapterFactory#validate}); each
 * destination against its kind's ({@code staged}, the default; {@code http}; {@code fenced}). The
 * keys of every adapter and kind are listed in {@code docs/configuration-reference.md}, generated
 * from the same declarations ({@link ConfigReference}). Stores are opened when first needed ({@link
 * #issuer()}, {@link #destination}, {@link #describe()}) and closed by {@link #close()}. The file's
 * format is documented in {@code examples/fenceline.yaml}.
 *
 * <p>Every problem with the file is a {@link ConfigFileException} naming the file, line, column,
 * key path and fix; a store that cannot be reached is a {@link StoreException}. Secrets never
 * appear in messages or {@link #toString()}. Thread-safe.
 */
public final class FencelineConfig implements AutoCloseable {

  private static final Set<String> KEYS =
      Set.of(
          "stores",
          "issuer",
          "lease",
          "allow-unguarded",
          "allow-idempotent-only",
          "allow-fenced-at-intent",
          "destinations");

  private final Path file;
  private final String source;
  private final Section root;
  private final Stores stores;
  private final String issuerStore;
  private final LeaseConfig lease;
  private final boolean allowUnguarded;
  private final boolean allowIdempotentOnly;
  private final boolean allowFencedAtIntent;
  private final KindContext context;
  private final Map<String, DestinationKinds.Entry> destinations;

  private final Map<String, ConfiguredDestination> built = new LinkedHashMap<>();

  /**
   * The caller's {@link Fenceline} ({@link Loader#fenceline}), or null: this one builds its own.
   */
  private final java.util.function.Supplier<Fenceline> givenFenceline;

  private Fenceline fenceline;
  private boolean closed;

  private FencelineConfig(Path file, Section root, AdapterRegistry registry) {
    this(file, file.toString(), root, registry, Map.of(), null, null);
  }

  private FencelineConfig(
      Path file,
      String source,
      Section root,
      AdapterRegistry registry,
      Map<String, Stores.Provided> provided,
      String defaultIssuer,
      java.util.function.Supplier<Fenceline> givenFenceline) {
    this.file = file;
    this.source = source;
    this.root = root;
    this.givenFenceline = givenFenceline;
    root.allowOnly(KEYS);
    this.stores = Stores.read(root, registry, provided);
    this.lease = root.section("lease").map(LeaseConfig::from).orElseGet(LeaseConfig::defaults);
    this.allowUnguarded = root.bool("allow-unguarded").orElse(false);
    this.allowIdempotentOnly = root.bool("allow-idempotent-only").orElse(false);
    this.allowFencedAtIntent = root.bool("allow-fenced-at-intent").orElse(false);
    this.issuerStore =
        defaultIssuer != null && !root.has("issuer")
            ? defaultIssuer
            : root.requiredString("issuer", "main   # a store of type jdbc");
    stores.require(root, "issuer", issuerStore);
    this.context = new KindContext(stores, issuerStore, root, this::fenceline);
    if (!stores.offers(issuerStore, StoreRole.LEASE_ISSUER)) {
      throw root.valueError(
          "issuer",
          "store \""
              + issuerStore
              + "\" ("
              + stores.entry(issuerStore).type()
              + ") offers no lease issuer, so it cannot issue leases",
          "point issuer at a store of a type that issues leases: "
              + context.types(StoreRole.LEASE_ISSUER));
    }
    this.destinations = DestinationKinds.read(root, context);
  }

  /**
   * The keys of a configuration outside its stores and destinations, nested ones dotted ({@code
   * lease.ttl}), with {@code stores} and {@code destinations}, which hold named sections whose keys
   * the adapters and destination kinds declare ({@link ConfigReference}). For tools that describe
   * the file, such as IDE metadata.
   */
  public static java.util.SortedSet<String> keys() {
    java.util.SortedSet<String> keys = new java.util.TreeSet<>(KEYS);
    keys.remove("lease");
    LeaseConfig.KEYS.forEach(key -> keys.add("lease." + key));
    return java.util.Collections.unmodifiableSortedSet(keys);
  }

  /**
   * Loads {@code file}, reading {@code ${VAR}} references from the process environment.
   *
   * @throws ConfigFileException if the file is missing, not YAML, or wrong anywhere
   */
  public static FencelineConfig load(Path file) {
    return load(file, System::getenv);
  }

  /**
   * Loads {@code file}, reading {@code ${VAR}} references (and HTTP bearer tokens) from {@code
   * environment}.
   *
   * @throws ConfigFileException if the file is missing, not YAML, or wrong anywhere
   */
  public static FencelineConfig load(Path file, Function<String, String> environment) {
    return load(file, environment, AdapterRegistry.load());
  }

  /** As {@link #load(Path, Function)}, with the adapters of {@code registry}. */
  public static FencelineConfig load(
      Path file, Function<String, String> environment, AdapterRegistry registry) {
    requireNonNull(file, "file is null");
    requireNonNull(environment, "environment is null");
    requireNonNull(registry, "registry is null");
    ConfigNode.Mapping tree = YamlTreeReader.read(file);
    Section.Source source = new Section.Source(environment, new Secrets());
    FileSecrets.collect(tree, source, registry);
    return new FencelineConfig(file, new Section(source, "", tree), registry);
  }

  /**
   * Starts loading {@code tree}, a configuration that does not come from a file (such as a Spring
   * application's {@code fenceline.*} properties): read and checked by the same code as a file,
   * with the same messages, each citing the value's {@link ConfigLocation} and its key path with
   * the tree's {@linkplain ConfigTree#keyPrefix() prefix}.
   *
   * <pre>{@code
   * FencelineConfig config =
   *     FencelineConfig.loader(tree)
   *         .environment(environment::getProperty)
   *         .store("application", "jdbc", "the application's DataSource", () -> adapter)
   *         .defaultIssuer("application")
   *         .load();
   * }</pre>
   */
  public static Loader loader(ConfigTree tree) {
    return new Loader(requireNonNull(tree, "tree is null"));
  }

  /**
   * Loads a {@link ConfigTree}, with stores the caller provides beside the tree's. Not thread-safe;
   * {@link #load()} may be called once.
   */
  public static final class Loader {
    private final ConfigTree tree;
    private Function<String, String> environment = System::getenv;
    private AdapterRegistry registry;
    private final Map<String, Stores.Provided> provided = new LinkedHashMap<>();
    private String defaultIssuer;
    private java.util.function.Supplier<Fenceline> fenceline;

    private Loader(ConfigTree tree) {
      this.tree = tree;
    }

    /**
     * Where the destinations read what they take from the environment by name, such as an HTTP
     * destination's {@code bearer-token-env} (default: the process environment). The tree's values
     * are not interpolated.
     */
    public Loader environment(Function<String, String> environment) {
      this.environment = requireNonNull(environment, "environment is null");
      return this;
    }

    /** The adapters (default: those on the class path, {@link AdapterRegistry#load()}). */
    public Loader registry(AdapterRegistry registry) {
      this.registry = requireNonNull(registry, "registry is null");
      return this;
    }

    /**
     * A store the caller provides, named {@code name} like the tree's {@code stores:}, for a
     * connection the tree cannot describe (an application's {@code DataSource}). Its roles are
     * those of adapter {@code type}; {@code open} is called when the store is first needed (as a
     * tree's store opens) and its adapter closed by {@link FencelineConfig#close()}. A store of the
     * same name in the tree replaces it.
     *
     * @param description what the store is, for messages (no credentials), such as {@code the
     *     application's DataSource}
     * @throws ConfigurationException if there is no adapter {@code type}
     */
    public Loader store(
        String name, String type, String description, java.util.function.Supplier<Adapter> open) {
      requireNonNull(name, "name is null");
      requireNonNull(type, "type is null");
      requireNonNull(description, "description is null");
      requireNonNull(open, "open is null");
      provided.put(name, new Stores.Provided(name, type, description, open));
      return this;
    }

    /** The store that issues leases when the tree has no {@code issuer:} (default: required). */
    public Loader defaultIssuer(String store) {
      this.defaultIssuer = requireNonNull(store, "store is null");
      return this;
    }

    /**
     * The {@link Fenceline} that {@link FencelineConfig#fenceline()} returns and its destinations
     * publish through (default: one built from the configuration and closed with it); the caller
     * closes it.
     */
    public Loader fenceline(java.util.function.Supplier<Fenceline> fenceline) {
      this.fenceline = requireNonNull(fenceline, "fenceline is null");
      return this;
    }

    /**
     * Reads and checks the tree as {@link FencelineConfig#load(Path)} reads a file, opening
     * nothing.
     *
     * @throws ConfigFileException at the first mistake, citing the value's location
     * @throws ConfigurationException if a provided store names an unknown adapter type
     */
    public FencelineConfig load() {
      AdapterRegistry adapters = registry != null ? registry : AdapterRegistry.load();
      Section.Source source = new Section.Source(environment, new Secrets(), false);
      tree.secrets().forEach(source.secrets()::add);
      FileSecrets.collect(tree.root(), source, adapters);
      Map<String, Stores.Provided> stores = new LinkedHashMap<>();
      provided.forEach(
          (name, store) -> {
            adapters.factory(store.type());
            stores.put(name, store);
          });
      return new FencelineConfig(
          null,
          tree.source(),
          new Section(source, tree.keyPrefix(), tree.root()),
          adapters,
          stores,
          defaultIssuer,
          fenceline);
    }
  }

  /**
   * The configuration file.
   *
   * @throws IllegalStateException if the configuration was loaded from a {@link ConfigTree}, not
   *     from a file (see {@link #source()})
   */
  public Path file() {
    if (file == null) {
      throw new IllegalStateException(
          "Cannot name the file of the configuration from "
              + source
              + ": it was not loaded from a file (use source())");
    }
    return file;
  }

  /**
   * Where the configuration comes from, for messages: the file's path, or a {@link ConfigTree}'s
   * {@linkplain ConfigTree#source() source} (such as {@code the Spring environment}).
   */
  public String source() {
    return source;
  }

  /** The {@code lease:} settings (defaults if the section is missing). */
  public LeaseConfig lease() {
    return lease;
  }

  /** True if the file says {@code allow-unguarded: true}. */
  public boolean allowUnguarded() {
    return allowUnguarded;
  }

  /** True if the file says {@code allow-idempotent-only: true}. */
  public boolean allowIdempotentOnly() {
    return allowIdempotentOnly;
  }

  /** True if the file says {@code allow-fenced-at-intent: true}. */
  public boolean allowFencedAtIntent() {
    return allowFencedAtIntent;
  }

  /**
   * {@code text} with the credentials of URLs (user info, {@code password=} and similar parameters)
   * and {@code Authorization} header values replaced by {@code ****}, and every unambiguous secret
   * of this file (values of secret keys, of secret environment variables, passwords in URLs, bearer
   * tokens: at least 8 characters of two kinds, or 16) replaced where it stands as a whole word:
   * for messages built outside this module, such as a failure a store reported while publishing.
   * Nothing else changes, so a short or common secret ({@code x}, {@code postgres}) never garbles
   * the text; this module's own messages never show such a secret.
   */
  public String mask(String text) {
    return root.source().secrets().scrub(String.valueOf(text));
  }

  /** The names of the configured stores, in file order. */
  public Set<String> storeNames() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(stores.names()));
  }

  /**
   * The {@code type} of store {@code name} ({@code jdbc}, {@code vfs}, {@code s3}, ...).
   *
   * @throws ConfigurationException if there is no such store (the message lists the names)
   */
  public String storeType(String name) {
    return storeEntry(name).type();
  }

  /**
   * The adapter instance of store {@code name}, opening the store if needed; closed by {@link
   * #close()}. For work on one store that has no place in the {@link Fenceline} API, such as JDBC
   * retention: the caller checks the adapter's class (this module does not compile against
   * adapters, so it returns the SPI type).
   *
   * @throws ConfigurationException if there is no such store, or its adapter refused the keys
   * @throws StoreException if the store cannot be reached
   */
  public synchronized Adapter storeAdapter(String name) {
    storeEntry(name);
    return adapter(name);
  }

  private Stores.Entry storeEntry(String name) {
    requireNonNull(name, "name is null");
    if (!stores.has(name)) {
      throw new ConfigurationException(
          "Cannot find store \""
              + root.source().secrets().scrub(name)
              + "\" in "
              + source
              + ": configured are "
              + String.join(", ", stores.names())
              + " (check the spelling)");
    }
    return stores.entry(name);
  }

  /** The names of the configured destinations, in file order. */
  public Set<String> destinationNames() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(destinations.keySet()));
  }

  /**
   * The lease issuer of the {@code issuer:} store, opening the store if needed.
   *
   * @throws ConfigFileException if that store offers no lease issuer
   * @throws StoreException if the store cannot be reached
   */
  public synchronized LeaseIssuer issuer() {
    return adapter(issuerStore)
        .leaseIssuer()
        .orElseThrow(
            () ->
                root.keyError(
                    "issuer",
                    "store \""
                        + issuerStore
                        + "\" ("
                        + stores.entry(issuerStore).type()
                        + ") offers no lease issuer",
                    "point issuer at a store that issues leases, e.g. one of type "
                        + context.example(StoreRole.LEASE_ISSUER)));
  }

  /**
   * A new {@link Fenceline} builder preset from the file: issuer, holder, lease ttl and renewal,
   * and the {@code allow-*} flags. The caller builds and closes it.
   */
  public Fenceline.Builder fencelineBuilder() {
    return fencelineBuilder(issuer());
  }

  /**
   * As {@link #fencelineBuilder()}, with {@code issuer} in place of the {@code issuer:} store's (an
   * application's own issuer), opening no store.
   */
  public Fenceline.Builder fencelineBuilder(LeaseIssuer issuer) {
    requireNonNull(issuer, "issuer is null");
    return Fenceline.builder()
        .issuer(issuer)
        .holder(lease.holder())
        .leaseTtl(lease.ttl())
        .renewEvery(lease.renewEvery())
        .allowUnguarded(allowUnguarded)
        .allowIdempotentOnly(allowIdempotentOnly)
        .allowFencedAtIntent(allowFencedAtIntent);
  }

  /**
   * The {@link Fenceline} built from {@link #fencelineBuilder()}, one per configuration, closed by
   * {@link #close()}; or the one given to the {@linkplain Loader#fenceline loader}, which the
   * caller closes.
   */
  public synchronized Fenceline fenceline() {
    checkOpen();
    if (givenFenceline != null) {
      return givenFenceline.get();
    }
    if (fenceline == null) {
      fenceline = fencelineBuilder().build();
    }
    return fenceline;
  }

  /**
   * The destination called {@code name}, opening its stores if needed; the strategy follows the
   * stores' capabilities (see {@link Strategy}).
   *
   * @throws ConfigurationException if there is no such destination (the message lists the names),
   *     or its stores cannot serve it (a {@link ConfigFileException} at its section)
   * @throws StoreException if a store cannot be reached
   */
  public synchronized ConfiguredDestination destination(String name) {
    requireNonNull(name, "name is null");
    checkOpen();
    ConfiguredDestination done = built.get(name);
    if (done != null) {
      return done;
    }
    DestinationKinds.Entry entry = destinations.get(name);
    if (entry == null) {
      throw new ConfigurationException(
          "Cannot find destination \""
              + root.source().secrets().scrub(name)
              + "\" in "
              + source
              + ": "
              + (destinations.isEmpty()
                  ? "none is configured (add one under destinations:)"
                  : "configured are "
                      + String.join(", ", destinations.keySet())
                      + " (check the spelling)"));
    }
    ConfiguredDestination destination = entry.kind().build(entry, context, false);
    built.put(name, destination);
    return destination;
  }

  /**
   * Opens every store and destination and reports each destination's type, capabilities, guarantee,
   * strategy and why: what {@code fenceline doctor} prints. Opening a store runs its adapter's
   * checks (durability, primary, S3 probe).
   *
   * @throws ConfigFileException if a store or destination cannot be built as configured
   * @throws StoreException if a store cannot be reached
   */
  public synchronized List<DestinationReport> describe() {
    checkOpen();
    for (String store : stores.names()) {
      adapter(store);
    }
    List<DestinationReport> reports = new ArrayList<>();
    for (String name : destinations.keySet()) {
      reports.add(destination(name).report());
    }
    return List.copyOf(reports);
  }

  /**
   * What {@code fenceline doctor} reports, creating and changing nothing: each store's {@linkplain
   * AdapterFactory#preflight preflight} (what opening it would create, why it could not be
   * written), and each destination's row as {@link #describe()} gives it. A store whose preflight
   * finds nothing to create and no problem is opened, running its adapter's checks; one that would
   * be created or cannot be written is not opened, and its destinations' rows are built from a
   * stand-in of the components its adapter declares ({@link AdapterFactory#roles()}; the guarantee
   * and strategy follow from them). A row is {@linkplain DestinationReport#notUsable() not usable}
   * if a store it needs cannot be written, or if the environment variable of its bearer token is
   * unset here: then {@link #destination} (publishing) fails naming the variable, while the other
   * destinations work.
   *
   * <p>Stores whose adapter declares no roles, and stores whose adapter does not check without
   * opening ({@code s3}, PostgreSQL), are opened as {@link #describe()} opens them.
   *
   * <p>After {@link #forReading()} (as {@code fenceline doctor} calls it) the stores are opened for
   * reading: a database is neither given Fenceline's tables nor migrated; what opening it for
   * writing would do is in {@link ConfigCheck.StoreCheck#wouldChange()}, and its destinations' rows
   * are built from a stand-in as for a store that does not exist yet. Without it, opening a ready
   * database creates or migrates its tables. Either way an adapter's own checks run: an {@code s3}
   * store's conditional-write probe writes and deletes probe objects, a {@code vfs} store's case
   * check creates and deletes one probe file in its directory.
   *
   * @throws ConfigFileException if a store or destination cannot be built as configured
   * @throws StoreException if a store that was opened cannot be reached
   */
  public synchronized ConfigCheck check() {
    checkOpen();
    List<ConfigCheck.StoreCheck> storeChecks = new ArrayList<>();
    Map<String, String> unusable = new LinkedHashMap<>();
    try {
      for (Stores.Entry store : stores.entries()) {
        StorePreflight preflight = stores.preflight(store);
        List<String> wouldChange = List.of();
        if (preflight.readyToOpen() || !stores.standIn(store.name())) {
          Adapter adapter = adapter(store.name());
          if (stores.openedForReading()) {
            // Opened read-only: a database without Fenceline's tables (or with older ones) is
            // described from a stand-in, as one that does not exist yet, since the read-only
            // store has no identity to build its components with.
            wouldChange = adapter.wouldChange();
            if (!wouldChange.isEmpty()) {
              stores.standIn(store.name());
            }
          }
        }
        storeChecks.add(
            new ConfigCheck.StoreCheck(store.name(), store.type(), preflight, wouldChange));
        if (!preflight.problems().isEmpty()) {
          unusable.put(store.name(), String.join("; ", preflight.problems()));
        }
      }
      issuer(); // offers a lease issuer (a stand-in of a store that declares one does)
      List<DestinationReport> rows = new ArrayList<>();
      for (DestinationKinds.Entry entry : destinations.values()) {
        rows.add(row(entry, unusable));
      }
      return new ConfigCheck(storeChecks, rows);
    } finally {
      stores.clearStandIns();
    }
  }

  /** A destination's doctor row, not usable if a store it needs is, or its kind says so. */
  private DestinationReport row(DestinationKinds.Entry entry, Map<String, String> unusable) {
    DestinationReport row = entry.kind().build(entry, context, true).report();
    List<String> reasons = new ArrayList<>();
    for (String store : entry.kind().stores(entry, context)) {
      if (unusable.containsKey(store)) {
        reasons.add("store " + store + ": " + unusable.get(store));
      }
    }
    reasons.addAll(entry.kind().notUsable(entry, context));
    return reasons.isEmpty()
        ? row
        : row.withNotUsable(root.source().secrets().scrub(String.join("; ", reasons)));
  }

  /**
   * Makes the stores opened from now on open for looking only ({@link
   * AdapterFactory#createForReading}): a JDBC store then creates no tables and never takes the
   * database's write lock, so {@code fenceline status} answers while another process holds it. Call
   * it before the first store opens; what such stores would write may fail.
   *
   * @return this configuration
   */
  public synchronized FencelineConfig forReading() {
    checkOpen();
    stores.forReading(source);
    return this;
  }

  /** Closes the {@link #fenceline()} and every opened store; later calls fail. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (fenceline != null) {
      fenceline.close();
    }
    stores.close();
  }

  /** File, stores with their types, issuer and destination names; never a value of a key. */
  @Override
  public String toString() {
    StringBuilder text =
        new StringBuilder("FencelineConfig[")
            .append(file == null ? "source=" : "file=")
            .append(source)
            .append(", stores=[");
    List<String> parts = new ArrayList<>();
    stores.entries().forEach(store -> parts.add(store.name() + " (" + store.type() + ")"));
    text.append(String.join(", ", parts))
        .append("], issuer=")
        .append(issuerStore)
        .append(", destinations=")
        .append(destinations.keySet())
        .append("]");
    return root.source().secrets().scrub(text.toString());
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(
          "Cannot use the configuration " + source + ": it is closed (load it again)");
    }
  }

  /** The store's adapter, opened on first use (or its stand-in during {@link #check()}). */
  private Adapter adapter(String name) {
    checkOpen();
    return stores.adapter(name, root.source().secrets());
  }
}
