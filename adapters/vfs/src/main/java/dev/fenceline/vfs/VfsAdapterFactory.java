package dev.fenceline.vfs;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.ConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code vfs} adapter: a {@link VfsBlobStore}. Keys: {@code uri} (required, e.g. {@code
 * file:///var/lib/reports} or {@code sftp://host/srv/reports}), {@code user} and {@code password}
 * (SFTP; the password is never shown), {@code strict-host-key-checking} ({@code true} by default),
 * {@code timeout} (SFTP connect and read timeout as an ISO-8601 duration, default {@code PT30S}).
 */
public final class VfsAdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of("uri", "user", "password", "strict-host-key-checking", "timeout");

  @Override
  public String name() {
    return "vfs";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> config) {
    requireNonNull(instanceName, "instanceName is null");
    requireNonNull(config, "config is null");
    for (String key : config.keySet()) {
      if (!KEYS.contains(key)) {
        throw error(
            instanceName, "unknown key \"" + key + "\" (known keys: " + new TreeSet<>(KEYS) + ")");
      }
    }
    String uri = config.get("uri");
    if (uri == null || uri.isBlank()) {
      throw error(instanceName, "key \"uri\" is missing (e.g. uri: file:///var/lib/reports)");
    }
    VfsBlobStore.Builder builder = VfsBlobStore.builder(uri);
    String user = config.get("user");
    String password = config.get("password");
    if ((user == null) != (password == null)) {
      throw error(instanceName, "keys \"user\" and \"password\" go together (set both or neither)");
    }
    if (user != null) {
      builder.credentials(user, password);
    }
    String strict = config.get("strict-host-key-checking");
    if (strict != null) {
      if (!strict.equals("true") && !strict.equals("false")) {
        throw error(
            instanceName,
            "key \"strict-host-key-checking\" has value \"" + strict + "\" (write true or false)");
      }
      builder.strictHostKeyChecking(Boolean.parseBoolean(strict));
    }
    String timeout = config.get("timeout");
    if (timeout != null) {
      try {
        builder.timeout(Duration.parse(timeout));
      } catch (DateTimeParseException e) {
        throw error(
            instanceName, "key \"timeout\" has value \"" + timeout + "\" (write e.g. PT30S)");
      }
    }
    VfsBlobStore store = builder.build();
    return new Adapter() {
      @Override
      public Optional<BlobStore> blobStore() {
        return Optional.of(store);
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }

  private static ConfigurationException error(String instance, String problem) {
    return new ConfigurationException(
        "Cannot configure vfs adapter \"" + instance + "\": " + problem);
  }
}
