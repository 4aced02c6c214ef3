package dev.fenceline.zookeeper;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code zookeeper} adapter: a {@link ZkStore} offering its {@link ZkLeaseIssuer} and {@link
 * ZkPointerStore}s. Keys:
 *
 * <ul>
 *   <li>{@code connect-string} (required): {@code host:port[,host:port...]};
 *   <li>{@code root-path}: where the nodes live, default {@value ZkStore#DEFAULT_ROOT};
 *   <li>{@code session-timeout}, {@code connection-timeout}: durations such as {@code 15s};
 *       defaults {@code 15s} and {@code 3s} (see {@link ZkStore.Builder#connectionTimeout} for the
 *       longest call they allow);
 *   <li>{@code auth-digest}: {@code user:password} for ZooKeeper's digest scheme (pass the password
 *       from the environment; it never appears in messages);
 *   <li>{@code sasl-login-context}: the JAAS login context for SASL (Kerberos or DIGEST-MD5),
 *       passed through to the ZooKeeper client;
 *   <li>{@code acl}: {@code open}, {@code creator} or {@code creator-write-anyone-read}; default
 *       {@code creator} with authentication, {@code open} without.
 * </ul>
 */
public final class ZkAdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of(
          "connect-string",
          "root-path",
          "session-timeout",
          "connection-timeout",
          "auth-digest",
          "sasl-login-context",
          "acl");

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    ZkStore.Builder builder =
        ZkStore.builder(config.required("connect-string", "zk1:2181,zk2:2181,zk3:2181"));
    config
        .optional("root-path")
        .ifPresent(root -> checked(config, "root-path", root, () -> builder.rootPath(root)));
    config
        .duration("session-timeout")
        .ifPresent(
            timeout ->
                checked(
                    config,
                    "session-timeout",
                    timeout.toString(),
                    () -> builder.sessionTimeout(timeout)));
    config
        .duration("connection-timeout")
        .ifPresent(
            timeout ->
                checked(
                    config,
                    "connection-timeout",
                    timeout.toString(),
                    () -> builder.connectionTimeout(timeout)));
    config
        .optional("auth-digest")
        .ifPresent(
            digest -> {
              int colon = digest.indexOf(':');
              if (colon < 1 || colon == digest.length() - 1) {
                throw config.error(
                    "key \"auth-digest\" is not user:password (the value is not shown; write"
                        + " e.g. auth-digest: \"fenceline:${ZK_PASSWORD}\")");
              }
              builder.digest(digest.substring(0, colon), digest.substring(colon + 1));
            });
    config
        .optional("sasl-login-context")
        .ifPresent(
            context -> checked(config, "sasl-login-context", context, () -> builder.sasl(context)));
    Optional<ZkStore.Acl> acl = config.optional("acl").map(value -> acl(config, value));
    acl.ifPresent(builder::acl);
    if (acl.isPresent()
        && acl.get() != ZkStore.Acl.OPEN
        && config.optional("auth-digest").isEmpty()
        && config.optional("sasl-login-context").isEmpty()) {
      throw config.error(
          "key \"acl\" has value \""
              + config.optional("acl").orElseThrow()
              + "\", which needs an authenticated client (set auth-digest: \"user:${ZK_PASSWORD}\""
              + " or sasl-login-context: Client, or write acl: open)");
    }
    ZkStore store;
    try {
      store = builder.build();
    } catch (IllegalArgumentException e) {
      throw config.error(e.getMessage());
    }
    return new Adapter() {
      @Override
      public Optional<LeaseIssuer> leaseIssuer() {
        return Optional.of(store.leaseIssuer());
      }

      @Override
      public Optional<PointerStore> pointerStore(String name) {
        return Optional.of(store.pointerStore(name));
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }

  private static ZkStore.Acl acl(AdapterConfig config, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "open" -> ZkStore.Acl.OPEN;
      case "creator" -> ZkStore.Acl.CREATOR;
      case "creator-write-anyone-read" -> ZkStore.Acl.CREATOR_WRITE_ANYONE_READ;
      default ->
          throw config.error(
              "key \"acl\" has value \""
                  + value
                  + "\" (write open, creator or creator-write-anyone-read)");
    };
  }

  /** Runs a builder setting, turning its refusal into a configuration error naming the key. */
  private static void checked(AdapterConfig config, String key, String value, Runnable set) {
    try {
      set.run();
    } catch (IllegalArgumentException e) {
      throw config.error("key \"" + key + "\" has value \"" + value + "\": " + e.getMessage());
    }
  }
}
