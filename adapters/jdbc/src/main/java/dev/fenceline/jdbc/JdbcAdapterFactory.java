package dev.fenceline.jdbc;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.PointerStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code jdbc} adapter: a lease issuer, pointer stores and intent stores on one SQLite or
 * PostgreSQL database. Keys:
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
 *   <tr><td>{@code statement-timeout}</td><td>how long one statement may run on PostgreSQL
 *       (see {@link JdbcStore.Builder#statementTimeout})</td><td>{@code 60s}</td></tr>
 *   <tr><td>{@code connect-timeout}</td><td>PostgreSQL TCP connect (see {@link
 *       JdbcStore.Builder#connectTimeout})</td><td>{@code 10s}</td></tr>
 *   <tr><td>{@code login-timeout}</td><td>PostgreSQL connect and log in (see {@link
 *       JdbcStore.Builder#loginTimeout})</td><td>{@code 30s}</td></tr>
 *   <tr><td>{@code socket-timeout}</td><td>wait for PostgreSQL's answers (see {@link
 *       JdbcStore.Builder#socketTimeout})</td><td>{@code 90s}</td></tr>
 *   <tr><td>{@code unsafe-allow-epoch-rollback-on-crash}</td><td>accept a database that can lose
 *       commits on a crash (see {@link JdbcStore})</td><td>{@code false}</td></tr>
 * </table>
 */
public final class JdbcAdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of(
          "url",
          "user",
          "password",
          "lock-timeout",
          "statement-timeout",
          "connect-timeout",
          "login-timeout",
          "socket-timeout",
          "unsafe-allow-epoch-rollback-on-crash");

  @Override
  public String name() {
    return "jdbc";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    JdbcStore.Builder builder =
        JdbcStore.builder().url(config.required("url", "jdbc:sqlite:fenceline.db"));
    config.optional("user").ifPresent(builder::user);
    config.optional("password").ifPresent(builder::password);
    config.duration("lock-timeout").ifPresent(builder::lockTimeout);
    config.duration("statement-timeout").ifPresent(builder::statementTimeout);
    config.duration("connect-timeout").ifPresent(builder::connectTimeout);
    config.duration("login-timeout").ifPresent(builder::loginTimeout);
    config.duration("socket-timeout").ifPresent(builder::socketTimeout);
    config
        .bool("unsafe-allow-epoch-rollback-on-crash")
        .ifPresent(builder::unsafeAllowEpochRollbackOnCrash);
    JdbcStore store = builder.build();
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
      public Optional<IntentStore> intentStore(String name) {
        return Optional.of(store.intentStore(name));
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }
}
