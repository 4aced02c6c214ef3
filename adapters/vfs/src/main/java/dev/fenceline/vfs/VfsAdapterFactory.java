package dev.fenceline.vfs;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.StorePreflight;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code vfs} adapter: a {@link VfsBlobStore}. Keys: {@code uri} (required, e.g. {@code
 * file:///var/lib/reports} or {@code sftp://host/srv/reports}; a value without a scheme, such as
 * {@code ./reports}, is a local path relative to the working directory), {@code user} and {@code
 * password} (SFTP), {@code strict-host-key-checking} ({@code true} by default), {@code timeout}
 * (SFTP connect and read timeout, such as {@code 30s} or {@code PT30S}; default 30 s), {@code
 * allow-case-folding} ({@code false} by default: a store on a file system that folds case is
 * refused; see {@link VfsBlobStore.Builder#allowCaseFolding}). User names and passwords are never
 * shown in messages, also when written into the URI.
 */
public final class VfsAdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of(
          "uri", "user", "password", "strict-host-key-checking", "timeout", "allow-case-folding");

  @Override
  public String name() {
    return "vfs";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    VfsBlobStore store = builder(instanceName, values).build();
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

  /**
   * Whether the base directory exists and can be written, creating nothing (see {@link
   * VfsBlobStore.Builder#preflight()}).
   */
  @Override
  public StorePreflight preflight(String instanceName, Map<String, String> values) {
    return builder(instanceName, values).preflight();
  }

  private VfsBlobStore.Builder builder(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    VfsBlobStore.Builder builder =
        VfsBlobStore.builder(config.required("uri", "file:///var/lib/reports"));
    Optional<String> user = config.optional("user");
    Optional<String> password = config.optional("password");
    if (user.isPresent() != password.isPresent()) {
      throw config.error("keys \"user\" and \"password\" go together (set both or neither)");
    }
    user.ifPresent(name -> builder.credentials(name, password.get()));
    config.bool("strict-host-key-checking").ifPresent(builder::strictHostKeyChecking);
    config.duration("timeout").ifPresent(builder::timeout);
    config.bool("allow-case-folding").ifPresent(builder::allowCaseFolding);
    return builder;
  }
}
