package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.core.Fenceline;
import dev.fenceline.http.HttpApiDestination;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.StorePreflight;
import dev.fenceline.spi.SupportsPointerStoreRecord;
import dev.fenceline.staging.StagedDestination;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * Stores are opened when first needed ({@link #issuer()}, {@link #destination}, {@link
 * #describe()}) and closed by {@link #close()}. The file's format is documented in {@code
 * examples/fenceline.yaml}.
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

  private static final Set<String> URL_KEYS = Set.of("url", "uri", "endpoint", "base-uri");

  /** What a store can serve as. */
  private enum Offer {
    LEASE_ISSUER,
    BLOB_STORE,
    POINTER_STORE,
    INTENT_STORE
  }

  /**
   * What the stores of the adapter types this module knows offer, so that {@link #load} refuses a
   * store in a role it cannot play without opening it. Keep in step with the adapters' factories
   * (jdbc, vfs, s3, zookeeper); a type not listed is checked when its store opens. An s3 store's
   * pointer stores still depend on its conditional-write probe.
   */
  private static final Map<String, Set<Offer>> KNOWN_OFFERS =
      Map.of(
          "jdbc", Set.of(Offer.LEASE_ISSUER, Offer.POINTER_STORE, Offer.INTENT_STORE),
          "vfs", Set.of(Offer.BLOB_STORE),
          "s3", Set.of(Offer.BLOB_STORE, Offer.POINTER_STORE),
          "zookeeper", Set.of(Offer.LEASE_ISSUER, Offer.POINTER_STORE));

  private static final Pattern KEY_IN_MESSAGE = Pattern.compile("keys? \"([a-z0-9-]+)\"");

  private final Path file;
  private final Section root;
  private final Function<String, String> environment;
  private final AdapterRegistry registry;
  private final Map<String, StoreEntry> stores;
  private final String issuerStore;
  private final LeaseConfig lease;
  private final boolean allowUnguarded;
  private final boolean allowIdempotentOnly;
  private final boolean allowFencedAtIntent;
  private final Map<String, DestinationEntry> destinations;

  private final Map<String, Adapter> opened = new LinkedHashMap<>();
  private final Map<String, ConfiguredDestination> built = new LinkedHashMap<>();

  /**
   * During {@link #check()} only: stand-ins for the stores it did not open (see StandInAdapter).
   */
  private final Map<String, Adapter> standIns = new LinkedHashMap<>();

  private Fenceline fenceline;
  private boolean closed;
  private boolean forReading;

  /** One store section. */
  private record StoreEntry(
      String name, String type, Section section, Object settings, Map<String, String> keys) {}

  /**
   * One destination section: a {@link StagedDestinationConfig} or {@link HttpDestinationConfig}.
   */
  private record DestinationEntry(String name, Section section, Object settings) {}

  private FencelineConfig(Path file, Section root, AdapterRegistry registry) {
    this.file = file;
    this.root = root;
    this.environment = root.source().environment();
    this.registry = registry;
    root.allowOnly(KEYS);
    this.stores = readStores(root);
    this.lease = root.section("lease").map(LeaseConfig::from).orElseGet(LeaseConfig::defaults);
    this.allowUnguarded = root.bool("allow-unguarded").orElse(false);
    this.allowIdempotentOnly = root.bool("allow-idempotent-only").orElse(false);
    this.allowFencedAtIntent = root.bool("allow-fenced-at-intent").orElse(false);
    this.issuerStore = root.requiredString("issuer", "main   # a store of type jdbc");
    requireStore(root, "issuer", issuerStore);
    if (!offers(issuerStore, Offer.LEASE_ISSUER)) {
      throw root.valueError(
          "issuer",
          "store \""
              + issuerStore
              + "\" ("
              + stores.get(issuerStore).type()
              + ") offers no lease issuer, so it cannot issue leases",
          "point issuer at a store of a type that issues leases: "
              + typesOffering(Offer.LEASE_ISSUER));
    }
    this.destinations = readDestinations(root);
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
    collectSecrets(tree, source);
    return new FencelineConfig(file, new Section(source, "", tree), registry);
  }

  /** The configuration file. */
  public Path file() {
    return file;
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
    return Collections.unmodifiableSet(new java.util.LinkedHashSet<>(stores.keySet()));
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

  private StoreEntry storeEntry(String name) {
    requireNonNull(name, "name is null");
    StoreEntry store = stores.get(name);
    if (store == null) {
      throw new ConfigurationException(
          "Cannot find store \""
              + root.source().secrets().scrub(name)
              + "\" in "
              + file
              + ": configured are "
              + String.join(", ", stores.keySet())
              + " (check the spelling)");
    }
    return store;
  }

  /** The names of the configured destinations, in file order. */
  public Set<String> destinationNames() {
    return Collections.unmodifiableSet(new java.util.LinkedHashSet<>(destinations.keySet()));
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
                        + stores.get(issuerStore).type()
                        + ") offers no lease issuer",
                    "point issuer at a store that issues leases, e.g. one of type jdbc"));
  }

  /**
   * A new {@link Fenceline} builder preset from the file: issuer, holder, lease ttl and renewal,
   * and the {@code allow-*} flags. The caller builds and closes it.
   */
  public Fenceline.Builder fencelineBuilder() {
    return Fenceline.builder()
        .issuer(issuer())
        .holder(lease.holder())
        .leaseTtl(lease.ttl())
        .renewEvery(lease.renewEvery())
        .allowUnguarded(allowUnguarded)
        .allowIdempotentOnly(allowIdempotentOnly)
        .allowFencedAtIntent(allowFencedAtIntent);
  }

  /**
   * The {@link Fenceline} built from {@link #fencelineBuilder()}, one per configuration, closed by
   * {@link #close()}.
   */
  public synchronized Fenceline fenceline() {
    checkOpen();
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
    DestinationEntry entry = destinations.get(name);
    if (entry == null) {
      throw new ConfigurationException(
          "Cannot find destination \""
              + root.source().secrets().scrub(name)
              + "\" in "
              + file
              + ": "
              + (destinations.isEmpty()
                  ? "none is configured (add one under destinations:)"
                  : "configured are "
                      + String.join(", ", destinations.keySet())
                      + " (check the spelling)"));
    }
    ConfiguredDestination destination = build(entry, false);
    built.put(name, destination);
    return destination;
  }

  /**
   * Builds a destination; {@code checkOnly} (for {@link #check()}) builds an http destination whose
   * token variable is unset with a stand-in token, so that its other settings are checked; such a
   * destination is only described, never used or kept.
   */
  private ConfiguredDestination build(DestinationEntry entry, boolean checkOnly) {
    if (entry.settings() instanceof HttpDestinationConfig http) {
      if (!checkOnly) {
        return buildHttp(entry, http);
      }
      Optional<String> missing = missingSecret(entry, http);
      Function<String, String> lookup =
          missing.isEmpty()
              ? environment
              : variable ->
                  variable.equals(missing.get())
                      ? "stand-in-token-for-doctor"
                      : environment.apply(variable);
      return buildHttp(entry, http, lookup);
    }
    return buildStaged(entry, (StagedDestinationConfig) entry.settings());
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
    for (String store : stores.keySet()) {
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
   * stand-in of its components (the guarantee and strategy follow from the store's type). A row is
   * {@linkplain DestinationReport#notUsable() not usable} if a store it needs cannot be written, or
   * if the environment variable of its bearer token is unset here: then {@link #destination}
   * (publishing) fails naming the variable, while the other destinations work.
   *
   * <p>Stores of a type this module does not know (neither {@code jdbc} nor {@code vfs}), and
   * stores whose adapter does not check without opening ({@code s3}, PostgreSQL), are opened as
   * {@link #describe()} opens them.
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
      for (StoreEntry store : stores.values()) {
        StorePreflight preflight = preflight(store);
        Optional<Adapter> standIn =
            preflight.readyToOpen()
                ? Optional.empty()
                : StandInAdapter.of(store.name(), store.type());
        List<String> wouldChange = List.of();
        if (standIn.isPresent()) {
          standIns.put(store.name(), standIn.get());
        } else {
          Adapter adapter = adapter(store.name());
          if (forReading) {
            // Opened read-only: a database without Fenceline's tables (or with older ones) is
            // described from a stand-in, as one that does not exist yet, since the read-only
            // store has no identity to build its components with.
            wouldChange = adapter.wouldChange();
            if (!wouldChange.isEmpty()) {
              StandInAdapter.of(store.name(), store.type())
                  .ifPresent(stand -> standIns.put(store.name(), stand));
            }
          }
        }
        storeChecks.add(
            new ConfigCheck.StoreCheck(store.name(), store.type(), preflight, wouldChange));
        if (!preflight.problems().isEmpty()) {
          unusable.put(store.name(), String.join("; ", preflight.problems()));
        }
      }
      issuer(); // offers a lease issuer (a stand-in of a jdbc store does)
      List<DestinationReport> rows = new ArrayList<>();
      for (DestinationEntry entry : destinations.values()) {
        DestinationReport row = build(entry, true).report();
        List<String> reasons = new ArrayList<>();
        for (String store : storesOf(entry)) {
          if (unusable.containsKey(store)) {
            reasons.add("store " + store + ": " + unusable.get(store));
          }
        }
        if (entry.settings() instanceof HttpDestinationConfig http) {
          missingSecret(entry, http)
              .ifPresent(
                  variable ->
                      reasons.add(
                          "environment variable "
                              + variable
                              + " (bearer-token-env) is not set; publish to "
                              + entry.name()
                              + " fails until it is exported"));
        }
        rows.add(
            reasons.isEmpty()
                ? row
                : row.withNotUsable(root.source().secrets().scrub(String.join("; ", reasons))));
      }
      return new ConfigCheck(storeChecks, rows);
    } finally {
      standIns.clear();
    }
  }

  private StorePreflight preflight(StoreEntry store) {
    Section section = store.section();
    try {
      return registry.factory(store.type()).preflight(store.name(), store.keys());
    } catch (ConfigurationException e) {
      String key = keyNamedIn(e.getMessage()).filter(section::has).orElse("type");
      throw section.error(
          section.location(key),
          section.path(key),
          "the " + store.type() + " adapter refused the store: " + e.getMessage(),
          null,
          e);
    }
  }

  /** The stores a destination writes through: its store, pointer store or intent store, issuer. */
  private List<String> storesOf(DestinationEntry entry) {
    List<String> result = new ArrayList<>();
    if (entry.settings() instanceof HttpDestinationConfig http) {
      result.add(http.intentStore().orElse(issuerStore));
    } else {
      StagedDestinationConfig staged = (StagedDestinationConfig) entry.settings();
      result.add(staged.store());
      staged.pointerStore().ifPresent(result::add);
    }
    if (!result.contains(issuerStore)) {
      result.add(issuerStore);
    }
    return result;
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
    if (!opened.isEmpty()) {
      throw new IllegalStateException(
          "Cannot open the stores of " + file + " for reading: some are open already");
    }
    forReading = true;
    return this;
  }

  /** Closes the {@link #fenceline()} and every opened store; later calls fail. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    if (fenceline != null) {
      fenceline.close();
    }
    List<Map.Entry<String, Adapter>> toClose = new ArrayList<>(opened.entrySet());
    Collections.reverse(toClose);
    for (Map.Entry<String, Adapter> adapter : toClose) {
      try {
        adapter.getValue().close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** File, stores with their types, issuer and destination names; never a value of a key. */
  @Override
  public String toString() {
    StringBuilder text =
        new StringBuilder("FencelineConfig[file=").append(file).append(", stores=[");
    List<String> parts = new ArrayList<>();
    stores.values().forEach(store -> parts.add(store.name() + " (" + store.type() + ")"));
    text.append(String.join(", ", parts))
        .append("], issuer=")
        .append(issuerStore)
        .append(", destinations=")
        .append(destinations.keySet())
        .append("]");
    return root.source().secrets().scrub(text.toString());
  }

  // ---- reading -----------------------------------------------------------------------------

  private Map<String, StoreEntry> readStores(Section root) {
    Map<String, StoreEntry> result = new LinkedHashMap<>();
    for (Map.Entry<String, Section> named : root.sections("stores").entrySet()) {
      Section section = named.getValue();
      String type = section.requiredString("type", "jdbc");
      AdapterFactory factory;
      try {
        factory = registry.factory(type);
      } catch (ConfigurationException e) {
        throw section.valueError(
            "type",
            "unknown store type \"" + type + "\"",
            "known types: "
                + knownTypes()
                + "; check the spelling, or add the adapter's jar to the class path");
      }
      Object settings;
      Map<String, String> keys;
      switch (factory.name()) {
        case "jdbc" -> {
          JdbcStoreConfig jdbc = JdbcStoreConfig.from(section);
          settings = jdbc;
          keys = jdbc.adapterKeys();
        }
        case "vfs" -> {
          VfsStoreConfig vfs = VfsStoreConfig.from(section);
          settings = vfs;
          keys = vfs.adapterKeys();
        }
        case "s3" -> {
          S3StoreConfig s3 = S3StoreConfig.from(section);
          settings = s3;
          keys = s3.adapterKeys();
        }
        default -> {
          // An adapter this module does not know: its factory checks its own keys on open.
          keys = new LinkedHashMap<>();
          for (String key : section.keys()) {
            if (!key.equals("type")) {
              section.string(key).ifPresent(value -> keys.put(key, value));
            }
          }
          settings = Map.copyOf(keys);
        }
      }
      result.put(named.getKey(), new StoreEntry(named.getKey(), type, section, settings, keys));
    }
    if (result.isEmpty()) {
      throw root.keyError(
          "stores",
          "no store is configured",
          "add one, e.g. stores: {main: {type: jdbc, url: \"jdbc:sqlite:fenceline.db\"}}");
    }
    return result;
  }

  private Map<String, DestinationEntry> readDestinations(Section root) {
    Map<String, DestinationEntry> result = new LinkedHashMap<>();
    Section names = root.section("destinations").orElse(null);
    for (Map.Entry<String, Section> named : root.sections("destinations").entrySet()) {
      String name = named.getKey();
      Section section = named.getValue();
      if (!Destination.NAME.matcher(name).matches()) {
        throw names.keyError(
            name,
            "\"" + name + "\" is not a destination name",
            "use 1 to 64 characters from a-z, 0-9, '.', '_' and '-', starting with a letter or digit");
      }
      String type = section.string("type").orElse("staged");
      Object settings;
      switch (type) {
        case "staged" -> {
          StagedDestinationConfig staged = StagedDestinationConfig.from(section);
          requireStore(section, "store", staged.store());
          staged.pointerStore().ifPresent(store -> requireStore(section, "pointer-store", store));
          checkStaged(name, section, staged);
          staged
              .prefix()
              .ifPresent(
                  prefix -> {
                    try {
                      BlobKey.of(prefix);
                    } catch (IllegalArgumentException e) {
                      throw section.valueError("prefix", e.getMessage(), "e.g. reports");
                    }
                  });
          settings = staged;
        }
        case "http" -> {
          HttpDestinationConfig http = HttpDestinationConfig.from(section);
          http.intentStore().ifPresent(store -> requireStore(section, "intent-store", store));
          String intentStore = http.intentStore().orElse(issuerStore);
          if (!offers(intentStore, Offer.INTENT_STORE)) {
            throw section.keyError(
                "intent-store",
                "store " + describeStore(intentStore) + " offers no intent store",
                "set intent-store: to a store of a type that records intents: "
                    + typesOffering(Offer.INTENT_STORE));
          }
          try {
            // Every check of the destination's builder, without building it (nothing connects).
            // An unset token variable is reported when the destination is first used (see
            // destination()): here it gets a stand-in, so the other settings are still checked.
            configure(HttpApiDestination.builder().name(name), http, withStandInToken(http));
          } catch (ConfigurationException | IllegalArgumentException e) {
            String key = httpKeyFor(e.getMessage(), section);
            throw section.error(
                section.location(key),
                section.path(key),
                "the http destination refused it: " + e.getMessage(),
                null,
                e);
          }
          http.requireKeyRetention(section);
          http.requireRequestPath(section);
          http.bearerTokenEnv()
              .map(environment)
              .filter(token -> token.chars().anyMatch(c -> c < 0x21 || c > 0x7e))
              .filter(token -> !token.isBlank())
              .ifPresent(
                  token -> {
                    throw section.valueError(
                        "bearer-token-env",
                        "environment variable "
                            + http.bearerTokenEnv().get()
                            + " holds whitespace, control or non-ASCII characters, which cannot"
                            + " be sent in an Authorization header",
                        "check how the variable is set, e.g. a trailing newline read from a"
                            + " file; the value is not shown");
                  });
          // The token variable is read when the destination is first used (see destination()), so
          // that a file whose other destinations need no secret loads where it is unset.
          http.requireResendRule(section);
          settings = http;
        }
        default ->
            throw section.valueError(
                "type",
                "unknown destination type \"" + type + "\"",
                "known types: staged (the default: files through a store's blob store), http");
      }
      result.put(name, new DestinationEntry(name, section, settings));
    }
    return result;
  }

  private void requireStore(Section section, String key, String store) {
    if (!stores.containsKey(store)) {
      throw section.valueError(
          key,
          "no store is called \"" + store + "\"",
          "configured stores: " + String.join(", ", stores.keySet()));
    }
  }

  /** Whether {@code store} offers {@code offer}; true for a type this module does not know. */
  private boolean offers(String store, Offer offer) {
    Set<Offer> known = KNOWN_OFFERS.get(stores.get(store).type());
    return known == null || known.contains(offer);
  }

  /** The known store types that offer {@code offer}, for messages. */
  private static String typesOffering(Offer offer) {
    return String.join(
        ", ",
        KNOWN_OFFERS.entrySet().stream()
            .filter(entry -> entry.getValue().contains(offer))
            .map(Map.Entry::getKey)
            .sorted()
            .toList());
  }

  /**
   * The checks of a staged destination that need no store opened: each store can play its role, and
   * the pointer store it will publish through keeps at least {@code keep-versions} versions.
   */
  private void checkStaged(String name, Section section, StagedDestinationConfig config) {
    String type = stores.get(config.store()).type();
    if (!offers(config.store(), Offer.BLOB_STORE)) {
      throw section.valueError(
          "store",
          "store " + describeStore(config.store()) + " offers no blob store to stage files in",
          "point store at a vfs or s3 store; a "
              + type
              + " store serves as pointer-store or issuer");
    }
    String pointerStore;
    if (config.pointerStore().isPresent()) {
      pointerStore = config.pointerStore().get();
      if (!offers(pointerStore, Offer.POINTER_STORE)) {
        throw section.valueError(
            "pointer-store",
            "store " + describeStore(pointerStore) + " offers no pointer store",
            "name a store that can check epochs, of type " + typesOffering(Offer.POINTER_STORE));
      }
    } else if (KNOWN_OFFERS.containsKey(type) && !offers(config.store(), Offer.POINTER_STORE)) {
      if (issuerStore.equals(config.store())) {
        throw section.valueError(
            "store",
            "store "
                + describeStore(config.store())
                + " cannot publish: it offers no pointer store (it cannot check epochs)",
            "set pointer-store: to a store of type jdbc");
      }
      // The issuer's store, which issues leases and so (jdbc, zookeeper) offers pointer stores.
      pointerStore = issuerStore;
    } else {
      pointerStore = config.store();
    }
    if (stores.get(pointerStore).settings() instanceof JdbcStoreConfig jdbc
        && jdbc.pointerVersions().isPresent()
        && config.keepVersions() > jdbc.pointerVersions().get()) {
      throw keepVersionsError(section, config, pointerStore, jdbc);
    }
  }

  private static ConfigFileException keepVersionsError(
      Section section, StagedDestinationConfig config, String pointerStore, JdbcStoreConfig jdbc) {
    // The store would prune pointer versions the sweep and rollbacks still count on.
    return section.keyError(
        "keep-versions",
        "keep-versions "
            + config.keepVersions()
            + " is more than the "
            + jdbc.pointerVersions().get()
            + " pointer versions store "
            + pointerStore
            + " keeps (its pointer-versions)",
        "raise pointer-versions of store "
            + pointerStore
            + " to at least "
            + config.keepVersions()
            + ", or lower keep-versions");
  }

  /** Applies the settings of {@code config} to {@code builder}; each setter checks its value. */
  private HttpApiDestination.Builder configure(
      HttpApiDestination.Builder builder,
      HttpDestinationConfig config,
      Function<String, String> environment) {
    builder
        .baseUri(config.baseUri())
        .environment(environment)
        .idempotencyKeyHeader(config.idempotencyKeyHeader())
        .attemptTimeLimit(config.attemptTimeLimit())
        .maxAttempts(config.maxAttempts())
        .backoff(config.backoff().initial(), config.backoff().multiplier(), config.backoff().max())
        .keysHonoured(config.keysHonoured())
        .resendInDoubtWithoutLookup(config.resendInDoubtWithoutLookup());
    config.bearerTokenEnv().ifPresent(builder::bearerTokenFromEnv);
    config
        .lookup()
        .ifPresent(
            lookup ->
                builder.lookup(
                    lookup.path(),
                    lookup.recordPointer().orElse(null),
                    lookup.keyPointer().orElse(null)));
    config.keyRetention().ifPresent(builder::keyRetention);
    config.receiptFields().forEach(builder::receiptField);
    return builder;
  }

  private String knownTypes() {
    return registry.names().isEmpty()
        ? "(none on the class path)"
        : String.join(", ", registry.names());
  }

  /** Registers every secret value before anything can be shown. */
  private static void collectSecrets(ConfigNode node, Section.Source source) {
    if (node instanceof ConfigNode.Mapping mapping) {
      for (Map.Entry<ConfigNode.Key, ConfigNode> entry : mapping.entries().entrySet()) {
        String key = entry.getKey().name();
        if (entry.getValue() instanceof ConfigNode.Scalar scalar) {
          collectSecret(key, scalar, source);
        } else {
          collectSecrets(entry.getValue(), source);
        }
      }
    } else if (node instanceof ConfigNode.Sequence sequence) {
      sequence.items().forEach(item -> collectSecrets(item, source));
    }
  }

  private static void collectSecret(String key, ConfigNode.Scalar scalar, Section.Source source) {
    Secrets secrets = source.secrets();
    boolean secretKey = Secrets.isSecretKey(key);
    if (secretKey && !scalar.text().contains("${")) {
      secrets.add(scalar.text());
    }
    try {
      Interpolation.Result result = Interpolation.resolve(scalar.text(), source.environment());
      if (secretKey || result.variables().stream().anyMatch(Secrets::isSecretVariable)) {
        secrets.add(result.value());
      }
      for (String variable : result.variables()) {
        if (Secrets.isSecretVariable(variable)) {
          secrets.add(source.environment().apply(variable));
        }
      }
      if (URL_KEYS.contains(key)) {
        secrets.addFromUrl(result.value());
      }
    } catch (Interpolation.Unresolved e) {
      // Reported with its location when the value is read.
    }
    if (key.equals("bearer-token-env")) {
      secrets.add(source.environment().apply(scalar.text().strip()));
    }
  }

  // ---- opening -----------------------------------------------------------------------------

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(
          "Cannot use the configuration " + file + ": it is closed (load it again)");
    }
  }

  /** The store's adapter, opened on first use. */
  private Adapter adapter(String name) {
    checkOpen();
    Adapter standIn = standIns.get(name);
    if (standIn != null) {
      return standIn;
    }
    Adapter adapter = opened.get(name);
    if (adapter != null) {
      return adapter;
    }
    StoreEntry store = stores.get(name);
    Section section = store.section();
    try {
      adapter =
          forReading
              ? registry.factory(store.type()).createForReading(name, store.keys())
              : registry.create(store.type(), name, store.keys());
    } catch (ConfigurationException e) {
      String key = keyNamedIn(e.getMessage()).filter(section::has).orElse("type");
      throw section.error(
          section.location(key),
          section.path(key),
          "the " + store.type() + " adapter refused the store: " + e.getMessage(),
          null,
          e);
    } catch (StoreException e) {
      Secrets secrets = root.source().secrets();
      String message =
          "Cannot open store "
              + section.path()
              + " ("
              + store.type()
              + ") configured at "
              + section.location()
              + ": "
              + secrets.scrub(e.getMessage());
      throw new StoreException(
          message, secrets.scrub(e.getMessage()).equals(e.getMessage()) ? e : null, false);
    }
    opened.put(name, adapter);
    return adapter;
  }

  private static Optional<String> keyNamedIn(String message) {
    Matcher matcher = KEY_IN_MESSAGE.matcher(String.valueOf(message));
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  private String describeStore(String name) {
    return name + " (" + stores.get(name).type() + ")";
  }

  private ConfiguredDestination buildStaged(
      DestinationEntry entry, StagedDestinationConfig config) {
    Section section = entry.section();
    String name = entry.name();
    StoreEntry store = stores.get(config.store());
    BlobStore blobs =
        adapter(config.store())
            .blobStore()
            .orElseThrow(
                () ->
                    section.valueError(
                        "store",
                        "store "
                            + describeStore(config.store())
                            + " offers no blob store to stage files in",
                        "point store at a vfs or s3 store; a "
                            + store.type()
                            + " store serves as pointer-store or issuer"));
    PointerStore pointers;
    Strategy strategy;
    String why;
    String pointerStoreName;
    if (config.pointerStore().isPresent()) {
      String other = config.pointerStore().get();
      pointerStoreName = other;
      pointers = pointerStoreOf(section, "pointer-store", other, name);
      strategy =
          other.equals(config.store())
              ? Strategy.STAGED_WITH_OWN_POINTER_STORE
              : Strategy.STAGED_WITH_POINTER_STORE;
      why =
          "pointer-store: " + other + " is set; staged with pointer store " + describeStore(other);
    } else {
      Optional<PointerStore> own;
      String ownProblem;
      try {
        own = adapter(config.store()).pointerStore(name);
        ownProblem = own.isPresent() ? null : "it offers no pointer store (it cannot check epochs)";
      } catch (ConfigurationException e) {
        // Never fall back on our own here: the checks (S3's conditional-write probe) can come out
        // differently in another process, which would then publish the same destination through
        // the store's own pointer store while this one publishes through the issuer's, and
        // neither would fence the other's stale writers.
        throw section.valueError(
            "store",
            "store "
                + describeStore(config.store())
                + " cannot publish destination "
                + name
                + " through its own pointer store, which failed its checks: "
                + e.getMessage()
                + "; Fenceline does not pick another pointer store by itself, since another"
                + " process's checks may pass",
            "set pointer-store: to the store every process should publish "
                + name
                + " through, e.g. pointer-store: "
                + issuerStore
                + "; the choice is recorded with the files and other choices are refused");
      }
      if (own.isPresent()) {
        pointers = own.get();
        pointerStoreName = config.store();
        strategy = Strategy.STAGED_WITH_OWN_POINTER_STORE;
        why =
            store.type()
                + " store "
                + config.store()
                + " offers a blob store and a pointer store that passed its checks; staged with"
                + " its own pointer store";
      } else {
        if (issuerStore.equals(config.store())) {
          throw section.valueError(
              "store",
              "store " + describeStore(config.store()) + " cannot publish: " + ownProblem,
              "set pointer-store: to a store of type jdbc");
        }
        pointers = pointerStoreOf(root, "issuer", issuerStore, name);
        pointerStoreName = issuerStore;
        strategy = Strategy.STAGED_WITH_POINTER_STORE;
        why =
            store.type()
                + " store "
                + config.store()
                + ": "
                + ownProblem
                + "; staged with pointer store "
                + describeStore(issuerStore)
                + ", the issuer's store";
      }
    }
    if (stores.get(pointerStoreName).settings() instanceof JdbcStoreConfig jdbc
        && jdbc.pointerVersions().isPresent()
        && config.keepVersions() > jdbc.pointerVersions().get()) {
      throw keepVersionsError(section, config, pointerStoreName, jdbc);
    }
    if (blobs instanceof SupportsPointerStoreRecord records) {
      // Every process checks, before its first publish, that it publishes through the pointer
      // store recorded for this destination (or records it, if it is the first).
      try {
        records.recordPointerStore(pointers);
      } catch (ConfigurationException e) {
        String key = config.pointerStore().isPresent() ? "pointer-store" : "store";
        throw section.error(
            section.location(key),
            section.path(key),
            "destination "
                + name
                + " would publish through pointer store "
                + describeStore(pointerStoreName)
                + ", but another one is recorded for it: "
                + e.getMessage(),
            null,
            e);
      }
    }
    StagedDestination.Builder builder =
        StagedDestination.builder(blobs, pointers)
            .sweepGrace(config.sweepGrace())
            .keepVersions(config.keepVersions());
    config.prefix().ifPresent(prefix -> builder.prefix(BlobKey.of(prefix)));
    StagedDestination destination = builder.build();
    return new ConfiguredDestination(
        name,
        store.type(),
        destination,
        strategy,
        root.source().secrets().scrub(why),
        this::fenceline,
        null,
        Optional.empty(),
        config.sweepAfterPublish());
  }

  private PointerStore pointerStoreOf(Section section, String key, String store, String name) {
    try {
      return adapter(store)
          .pointerStore(name)
          .orElseThrow(
              () ->
                  section.valueError(
                      key,
                      "store " + describeStore(store) + " offers no pointer store",
                      "name a store that can check epochs, e.g. one of type jdbc"));
    } catch (ConfigFileException e) {
      throw e;
    } catch (ConfigurationException e) {
      throw section.error(
          section.location(key),
          section.path(key),
          "the pointer store of " + describeStore(store) + " failed its checks: " + e.getMessage(),
          null,
          e);
    }
  }

  private ConfiguredDestination buildHttp(DestinationEntry entry, HttpDestinationConfig config) {
    missingSecret(entry, config)
        .ifPresent(
            variable -> {
              throw entry
                  .section()
                  .valueError(
                      "bearer-token-env",
                      "environment variable " + variable + " is not set or blank",
                      "export " + variable + " with the API's token before starting");
            });
    return buildHttp(entry, config, environment);
  }

  /**
   * This file's environment, with a stand-in value for the bearer-token variable of {@code config}
   * if that is unset or blank here: for checks of the other settings, never for sending.
   */
  private Function<String, String> withStandInToken(HttpDestinationConfig config) {
    Optional<String> variable = config.bearerTokenEnv();
    return name -> {
      String value = environment.apply(name);
      boolean missing = value == null || value.isBlank();
      return missing && variable.isPresent() && variable.get().equals(name)
          ? "stand-in-token-for-checks"
          : value;
    };
  }

  /** The variable of an http destination's bearer token, if it is unset or blank here. */
  private Optional<String> missingSecret(DestinationEntry entry, HttpDestinationConfig config) {
    return config
        .bearerTokenEnv()
        .filter(
            variable -> {
              String token = environment.apply(variable);
              return token == null || token.isBlank();
            });
  }

  private ConfiguredDestination buildHttp(
      DestinationEntry entry, HttpDestinationConfig config, Function<String, String> environment) {
    Section section = entry.section();
    String name = entry.name();
    String intentStoreName = config.intentStore().orElse(issuerStore);
    IntentStore intents =
        adapter(intentStoreName)
            .intentStore(name)
            .orElseThrow(
                () ->
                    section.keyError(
                        "intent-store",
                        "store " + describeStore(intentStoreName) + " offers no intent store",
                        "set intent-store: to a store of type jdbc"));
    HttpApiDestination destination;
    try {
      destination =
          configure(
                  HttpApiDestination.builder().name(name).intentStore(intents), config, environment)
              .build();
    } catch (ConfigurationException | IllegalArgumentException e) {
      String key = httpKeyFor(e.getMessage(), section);
      throw section.error(
          section.location(key),
          section.path(key),
          "the http destination refused it: " + e.getMessage(),
          null,
          e);
    }
    String why =
        "the API at "
            + Secrets.redactUrls(config.baseUri().toString())
            + " cannot compare epochs: each call's intent is recorded with an epoch check in "
            + describeStore(intentStoreName)
            + " before any request, and every attempt carries one idempotency key";
    return new ConfiguredDestination(
        name,
        "http",
        destination,
        Strategy.FENCED_AT_INTENT,
        root.source().secrets().scrub(why),
        this::fenceline,
        config.request(),
        Optional.of(root.source().secrets().scrub(destination.describeResendRule())));
  }

  /** The key of an http section a builder message is about, for the error's location. */
  private static String httpKeyFor(String message, Section section) {
    String text = String.valueOf(message).toLowerCase(java.util.Locale.ROOT);
    Map<String, String> phrases = new LinkedHashMap<>();
    phrases.put("base uri", "base-uri");
    phrases.put("lookup", "lookup");
    phrases.put("receipt field", "receipt-fields");
    phrases.put("idempotency key header", "idempotency-key-header");
    phrases.put("key retention", "key-retention");
    phrases.put("variable", "bearer-token-env");
    phrases.put("token", "bearer-token-env");
    phrases.put("attempt", "max-attempts");
    phrases.put("backoff", "backoff");
    for (Map.Entry<String, String> phrase : phrases.entrySet()) {
      if (text.contains(phrase.getKey()) && section.has(phrase.getValue())) {
        return phrase.getValue();
      }
    }
    return "type";
  }
}
