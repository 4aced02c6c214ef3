package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code jdbc} adapter: a lease issuer and a pointer store on one SQLite or PostgreSQL
 * database. Keys:
 *
 * <table>
 *   <caption>jdbc adapter configuration</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code url}</td><td>JDBC URL ({@code jdbc:sqlite:...} or {@code
 *       jdbc:postgresql://...})</td><td>required</td></tr>
 *   <tr><td>{@code user}</td><td>database user</td><td>none</td></tr>
 *   <tr><td>{@code password}</td><td>database password (never shown in messages)</td>
 *       <td>none</td></tr>
 *   <tr><td>{@code lock-timeout}</td><td>how long a step waits for another writer's lock, as
 *       {@code 30s}, {@code 500ms} or {@code PT30S}</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code unsafe-allow-epoch-rollback-on-crash}</td><td>accept a database that can lose
 *       commits on a crash (see {@link JdbcStore})</td><td>{@code false}</td></tr>
 * </table>
 */
public final class JdbcAdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of("url", "user", "password", "lock-timeout", "unsafe-allow-epoch-rollback-on-crash");

  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> config) {
    requireNonNull(instanceName, "instanceName is null");
    requireNonNull(config, "config is null");
    for (String key : config.keySet()) {
      if (!KEYS.contains(key)) {
        throw new ConfigurationException(
            "Cannot configure jdbc adapter \""
                + instanceName
                + "\": unknown key \""
                + key
                + "\" (known keys: "
                + new TreeSet<>(KEYS)
                + ")");
      }
    }
    String url = config.get("url");
    if (url == null || url.isBlank()) {
      throw new ConfigurationException(
          "Cannot configure jdbc adapter \""
              + instanceName
              + "\": key \"url\" is missing (e.g. url: jdbc:sqlite:fenceline.db)");
    }
    JdbcStore.Builder builder = JdbcStore.builder().url(url);
    Optional.ofNullable(config.get("user")).ifPresent(builder::user);
    Optional.ofNullable(config.get("password")).ifPresent(builder::password);
    Optional.ofNullable(config.get("lock-timeout"))
        .ifPresent(value -> builder.lockTimeout(duration(instanceName, "lock-timeout", value)));
    Optional.ofNullable(config.get("unsafe-allow-epoch-rollback-on-crash"))
        .ifPresent(
            value ->
                builder.unsafeAllowEpochRollbackOnCrash(
                    bool(instanceName, "unsafe-allow-epoch-rollback-on-crash", value)));
    JdbcStore store = builder.build();
    return new Adapter() {
      @Override
      public Optional<LeaseIssuer> leaseIssuer() {
        return Optional.of(store.leaseIssuer());
      }

      @Override
      public Optional<PointerStore> pointerStore() {
        return Optional.of(store.pointerStore());
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }

  static Duration duration(String instance, String key, String value) {
    String text = value.trim();
    try {
      if (text.startsWith("PT") || text.startsWith("pt")) {
        return Duration.parse(text);
      }
      if (text.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      }
      if (text.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
      }
      if (text.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      // Falls through to the message below.
    }
    throw new ConfigurationException(
        "Cannot configure jdbc adapter \""
            + instance
            + "\": key \""
            + key
            + "\" has value \""
            + value
            + "\", which is not a duration (write 30s, 500ms, 2m or PT30S)");
  }

  private static boolean bool(String instance, String key, String value) {
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new ConfigurationException(
        "Cannot configure jdbc adapter \""
            + instance
            + "\": key \""
            + key
            + "\" has value \""
            + value
            + "\" (write true or false)");
  }
}
