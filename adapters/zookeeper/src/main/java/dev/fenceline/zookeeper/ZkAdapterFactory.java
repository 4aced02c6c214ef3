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
package dev.fenceline.zookeeper;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.StoreRole;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code zookeeper} adapter: a {@link ZkStore} offering its {@link ZkLeaseIssuer} and {@link
 * ZkPointerStore}s. Its keys are declared in {@link #configKeys()} (listed in {@code
 * docs/configuration-reference.md}); {@code auth-digest} is secret (pass its password from the
 * environment), and an {@code acl} other than {@code open} needs authentication.
 */
public final class ZkAdapterFactory implements AdapterFactory {

  private static final List<String> ACLS = List.of("open", "creator", "creator-write-anyone-read");

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("connect-string")
              .required()
              .example("zk1:2181,zk2:2181,zk3:2181")
              .description("The ensemble: host:port[,host:port...].")
              .build(),
          ConfigKey.string("root-path")
              .defaultValue(ZkStore.DEFAULT_ROOT)
              .description("Where the nodes live: an absolute path of [A-Za-z0-9._-] segments.")
              .build(),
          ConfigKey.duration("session-timeout")
              .defaultValue(ZkStore.DEFAULT_SESSION_TIMEOUT)
              .description(
                  "The session timeout the client asks for; keep it at most the lease ttl.")
              .build(),
          ConfigKey.duration("connection-timeout")
              .defaultValue(ZkStore.DEFAULT_CONNECTION_TIMEOUT)
              .description(
                  "The wait for a connection, at open and for each try of a call (the default"
                      + " bounds one call to 21.6s).")
              .build(),
          ConfigKey.string("auth-digest")
              .secret()
              .description(
                  "user:password for ZooKeeper's digest scheme, e.g. \"fenceline:${ZK_PASSWORD}\".")
              .build(),
          ConfigKey.string("sasl-login-context")
              .description("The JAAS login context for SASL (Kerberos or DIGEST-MD5), e.g. Client.")
              .build(),
          ConfigKey.choice("acl", ACLS.toArray(String[]::new))
              .description(
                  "The ACL of the nodes the store creates; unset: creator with authentication,"
                      + " open without.")
              .build());

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public List<ConfigKey> configKeys() {
    return KEYS;
  }

  @Override
  public Set<StoreRole> roles() {
    return Set.of(StoreRole.LEASE_ISSUER, StoreRole.POINTER_STORE);
  }

  /** Checks the keys and every setting of the store as {@link #create} does, connecting nothing. */
  @Override
  public void validate(String instanceName, Map<String, String> values) {
    builder(configuration(instanceName, values));
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = configuration(instanceName, values);
    ZkStore.Builder builder = builder(config);
    ZkStore store;
    try {
      store = builder.build();
    } catch (IllegalArgumentException e) {
      throw config.error(e.getMessage());
    }
    return Adapter.builder(store::close)
        .leaseIssuer(store.leaseIssuer())
        .pointerStores(store::pointerStore)
        .build();
  }

  /**
   * The keys checked against their declarations, after those this adapter explains in its own
   * words: an {@code acl} it does not know, and timeouts outside the client's 1 ms to 24 days.
   */
  private AdapterConfig configuration(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.unchecked(this, instanceName, values);
    if (config.isSet("acl")) {
      String acl = config.optional("acl").orElseThrow();
      if (!ACLS.contains(acl.trim().toLowerCase(Locale.ROOT))) {
        throw config.error(
            "acl",
            "key \"acl\" has value "
                + config.shown("acl", acl)
                + " (write open, creator or creator-write-anyone-read)");
      }
    }
    checkTimeout(config, "session-timeout", "session timeout");
    checkTimeout(config, "connection-timeout", "connection timeout");
    return config.checkValues();
  }

  private static void checkTimeout(AdapterConfig config, String key, String what) {
    if (config.isSet(key)) {
      ConfigKey.parseDuration(config.optional(key).orElseThrow())
          .ifPresent(
              timeout ->
                  config.apply(key, timeout, () -> ZkStore.Builder.positiveMillis(what, timeout)));
    }
  }

  /** The store's builder with every setting applied and checked; nothing connects. */
  private static ZkStore.Builder builder(AdapterConfig config) {
    String connectString = config.required("connect-string");
    ZkStore.Builder builder =
        config.apply("connect-string", connectString, () -> ZkStore.builder(connectString));
    String root = config.optional("root-path").orElseThrow();
    config.apply("root-path", root, () -> builder.rootPath(root));
    Duration session = config.duration("session-timeout").orElseThrow();
    config.apply("session-timeout", session, () -> builder.sessionTimeout(session));
    Duration connection = config.duration("connection-timeout").orElseThrow();
    config.apply("connection-timeout", connection, () -> builder.connectionTimeout(connection));
    Optional<String> digest = config.optional("auth-digest");
    if (digest.isPresent()) {
      int colon = digest.get().indexOf(':');
      if (colon < 1 || colon == digest.get().length() - 1) {
        throw config.error(
            "auth-digest",
            "key \"auth-digest\" is not user:password (the value is not shown; write"
                + " e.g. auth-digest: \"fenceline:${ZK_PASSWORD}\")");
      }
      config.apply(
          "auth-digest",
          digest.get(),
          () ->
              builder.digest(digest.get().substring(0, colon), digest.get().substring(colon + 1)));
    }
    Optional<String> sasl = config.optional("sasl-login-context");
    sasl.ifPresent(
        context -> config.apply("sasl-login-context", context, () -> builder.sasl(context)));
    Optional<String> acl = config.optional("acl");
    acl.ifPresent(
        value ->
            builder.acl(
                ZkStore.Acl.valueOf(value.strip().replace('-', '_').toUpperCase(Locale.ROOT))));
    if (acl.isPresent()
        && !acl.get().strip().equals("open")
        && digest.isEmpty()
        && sasl.isEmpty()) {
      throw config.error(
          "acl",
          "key \"acl\" has value \""
              + acl.get()
              + "\", which needs an authenticated client (set auth-digest: \"user:${ZK_PASSWORD}\""
              + " or sasl-login-context: Client, or write acl: open)");
    }
    return builder;
  }
}
