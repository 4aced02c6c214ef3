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

import static java.util.Objects.requireNonNull;

import dev.fenceline.cas.CasPointerSteps;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.TokenKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A ZooKeeper ensemble (under a root path) and the Fenceline components built on it: a {@link
 * ZkLeaseIssuer} whose epochs and expiry the ensemble decides, and {@link ZkPointerStore}s that
 * fence publishing with versioned multi-operation transactions. Every node lives under {@link
 * Builder#rootPath} (see {@link ZkPaths} for the layout).
 *
 * <p>The store talks to ZooKeeper through Apache Curator. It either builds and owns a client
 * ({@link #builder(String)}: connect string, session and connection timeouts, digest or SASL
 * authentication, ACL) or uses one the application already runs ({@link
 * #builder(CuratorFramework)}), which it then neither starts nor closes. Credentials are never
 * shown in messages or {@link #toString()}.
 *
 * <p>Thread-safe. The operations on the nodes are {@link ZkNodes}; the Curator client a store
 * builds is {@link OwnedClient}; the time bound of a call is kept by {@link CallDeadline} and
 * {@link CallRetry}.
 */
public final class ZkStore implements AutoCloseable {

  /** The default root path: {@value}. */
  public static final String DEFAULT_ROOT = "/fenceline";

  /**
   * The default session timeout: 15 s (the ensemble may grant a value between its bounds). The
   * client gives up on a server it has not heard from for two thirds of it (10 s).
   */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(15);

  /** The default connection timeout: 3 s. */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(3);

  /**
   * How long one ZooKeeper request may wait for its answer (the client's {@code
   * zookeeper.request.timeout}): 4 s. It ends a request queued while the connection is down, which
   * would otherwise wait for the client's own connect attempt (the session timeout).
   */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(4);

  /**
   * How often Curator retries an operation whose connection or session was lost: {@value} (three
   * tries). Each try may wait the connection timeout for a connection, then the request timeout for
   * the answer.
   */
  static final int RETRIES = 2;

  /** The base sleep between two tries, doubled at random per retry, at most 1 s. */
  static final Duration BASE_RETRY_SLEEP = Duration.ofMillis(100);

  /** The longest sleep between two tries. */
  static final Duration MAX_RETRY_SLEEP = Duration.ofSeconds(1);

  /**
   * The longest one call of a store with the default timeouts waits for an ensemble that stops
   * answering: {@link #callBound(Duration)} of {@link #DEFAULT_CONNECTION_TIMEOUT}, 3 × (3 s + 4 s)
   * + 0.2 + 0.4 s = 21.6 s, below the default lease ttl of 30 s.
   */
  public static final Duration DEFAULT_CALL_BOUND = callBound(DEFAULT_CONNECTION_TIMEOUT);

  private static final Pattern STORE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private final CuratorFramework client;
  private final boolean owned;
  private final ZkPaths paths;
  private final String shown;
  private final TokenKeys tokenKeys;
  private final Duration connectionTimeout;
  private final String id;
  private final ZkNodes nodes;
  private final CallDeadline deadline;

  private ZkStore(
      Builder builder,
      CuratorFramework client,
      boolean owned,
      String shown,
      List<ACL> acls,
      CallDeadline deadline) {
    this.client = client;
    this.deadline = deadline;
    this.owned = owned;
    this.paths = new ZkPaths(builder.rootPath);
    this.shown = shown + builder.rootPath;
    this.tokenKeys = builder.tokenKeys;
    this.connectionTimeout = builder.connectionTimeout;
    this.nodes = new ZkNodes(client, acls, paths, this.shown);
    awaitConnected();
    nodes.ensureRoot();
    for (String path : List.of(paths.leases(), paths.pointers(), paths.clock())) {
      nodes.ensure(path, "create " + path);
    }
    this.id = "zk-" + loadId();
  }

  /**
   * A builder for a store that connects to {@code connectString} ({@code host:port,host:port,...},
   * optionally with a chroot suffix) with its own Curator client.
   */
  public static Builder builder(String connectString) {
    requireNonNull(connectString, "connectString is null");
    if (connectString.isBlank()) {
      throw new IllegalArgumentException(
          "Cannot connect to ZooKeeper: the connect string is blank (write host:port[,host:port...],"
              + " e.g. zk1:2181,zk2:2181,zk3:2181)");
    }
    return new Builder(connectString, null);
  }

  /**
   * A builder for a store on a Curator client the application already started and keeps owning: the
   * store does not close it, and the builder's connection settings (timeouts, authentication, ACL
   * provider) are the client's own. The ACL of the nodes the store creates is still {@link
   * Builder#acl}.
   */
  public static Builder builder(CuratorFramework client) {
    return new Builder(null, requireNonNull(client, "client is null"));
  }

  /**
   * The store's identity: {@code zk-} and a random ID created once per root path, the same in every
   * process. It is the issuer identity of {@link #leaseIssuer()} and the {@code storeId} of every
   * pointer store.
   */
  public String id() {
    return id;
  }

  /** {@code zookeeper://<connect string><root>}, as shown in messages. */
  public String location() {
    return shown;
  }

  /** The lease issuer on this ensemble (every instance shares the epochs). */
  public ZkLeaseIssuer leaseIssuer() {
    return new ZkLeaseIssuer(this);
  }

  /**
   * The pointer store named {@code name}: its pointers and operation records are kept apart from
   * other names', the registered epochs are shared by every name on the resource.
   *
   * @throws IllegalArgumentException if the name breaks {@link Destination#NAME}
   */
  public ZkPointerStore pointerStore(String name) {
    return pointerStore(name, StepListener.NONE);
  }

  /**
   * A pointer store named {@code name} that reports its steps to {@code steps} (tests, tracing).
   *
   * @see #pointerStore(String)
   */
  public ZkPointerStore pointerStore(String name, StepListener steps) {
    return new ZkPointerStore(this, name, requireNonNull(steps, "steps is null"));
  }

  /**
   * The longest one call of a store built with {@code connectionTimeout} (and the fixed request
   * timeout, tries and sleeps) waits for an ensemble that stops answering: every try may wait the
   * connection timeout for a connection (the session was lost) and then the request timeout for the
   * answer, and Curator sleeps at most 0.2 s, then 0.4 s between the tries. A call is every public
   * method of {@link ZkPointerStore} and {@link ZkLeaseIssuer} that talks to the ensemble: its
   * retries and the read that decides a transaction whose answer was lost only start while the call
   * has time left for a whole try. A store on a client passed in uses the client's retry policy;
   * its decision reads still keep to this bound.
   */
  public static Duration callBound(Duration connectionTimeout) {
    Duration bound = tryBound(connectionTimeout).multipliedBy(RETRIES + 1);
    for (int retry = 0; retry < RETRIES; retry++) {
      bound = bound.plus(Duration.ofMillis(CallRetry.longestSleepMillis(retry)));
    }
    return bound;
  }

  private static Duration tryBound(Duration connectionTimeout) {
    return connectionTimeout.plus(REQUEST_TIMEOUT);
  }

  /** The bound of one call of this store ({@link #callBound(Duration)}). */
  Duration callBound() {
    return callBound(connectionTimeout);
  }

  /**
   * Runs {@code body} as one call: it gets a deadline {@link #callBound()} from now unless it runs
   * inside another call (which keeps its own).
   */
  <T> T call(Supplier<T> body) {
    return deadline.call(body, callBound());
  }

  /**
   * True if the current call has time left for one more whole try (always outside a call): a read
   * that decides an unknown outcome only starts then.
   */
  boolean timeLeftForATry() {
    return deadline.timeLeftFor(tryBound(connectionTimeout));
  }

  /**
   * The failure of a write whose answer was lost and whose deciding read was skipped because the
   * call's time bound passed: its outcome is unknown.
   */
  StoreException decisionSkipped(String action, String lookUp, StoreException lost) {
    return new StoreException(
        "Cannot "
            + action
            + " at "
            + shown
            + ": the outcome is unknown: its transaction failed without a decisive answer ("
            + lost.getMessage()
            + ") and the read that decides whether it landed was skipped because the call's time"
            + " bound of "
            + callBound()
            + " passed ("
            + lookUp
            + " once the ensemble answers)",
        lost,
        true);
  }

  /** The Curator client (tests). */
  CuratorFramework client() {
    return client;
  }

  ZkPaths paths() {
    return paths;
  }

  /** The operations on the store's nodes. */
  ZkNodes nodes() {
    return nodes;
  }

  /** A read barrier through the quorum ({@link ZkNodes#barrier}; tests). */
  ZkNodes.Barrier barrier(String action) {
    return nodes.barrier(action);
  }

  /** The stat of the node at {@code path}, or empty ({@link ZkNodes#exists}; tests). */
  Optional<Stat> exists(String path, String action) {
    return nodes.exists(path, action);
  }

  String shown() {
    return shown;
  }

  FencingToken sign(FencingToken token) {
    return tokenKeys == null ? token : tokenKeys.sign(token);
  }

  void verify(FencingToken token, String action) {
    if (tokenKeys != null) {
      tokenKeys.verify(token, action);
    }
  }

  /** Closes the Curator client if the store built it; a client passed in stays open. */
  @Override
  public void close() {
    if (owned) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return "ZkStore[" + shown + "]";
  }

  /**
   * {@code e} as a failure whose outcome is unknown: it happened while deciding whether a refused
   * transaction landed after all (Curator re-sent it after a lost answer), so it may have.
   */
  StoreException undecided(StoreException e) {
    return CasPointerSteps.undecided(e);
  }

  private void awaitConnected() {
    try {
      if (!client.blockUntilConnected((int) connectionTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new StoreException(
            "Cannot connect to ZooKeeper at "
                + shown
                + " within "
                + connectionTimeout
                + " (check the connect string and that a quorum of the ensemble is up)",
            null,
            false);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("Cannot connect to ZooKeeper at " + shown + ": interrupted", e);
    }
  }

  private String loadId() {
    String fresh = UUID.randomUUID().toString();
    nodes.ensure(
        paths.store(), fresh.getBytes(StandardCharsets.UTF_8), "create the store identity");
    ZkNodes.Node node =
        nodes
            .read(paths.store(), "read the store identity")
            .orElseThrow(
                () ->
                    new StoreException(
                        "Cannot read the store identity "
                            + paths.store()
                            + " at "
                            + shown
                            + ": it was deleted while the store opened",
                        null));
    String stored = new String(node.data(), StandardCharsets.UTF_8);
    if (!STORE_ID.matcher(stored).matches()) {
      throw new StoreException(
          "Cannot read the store identity "
              + paths.store()
              + " at "
              + shown
              + ": it holds "
              + node.data().length
              + " bytes that are not 1 to 64 characters of [A-Za-z0-9._-] (restore the node; epochs"
              + " and staging areas are keyed by this identity)",
          null);
    }
    return stored;
  }

  /** Which ACL the nodes the store creates get. */
  public enum Acl {
    /** Anyone may read and change them ({@code world:anyone}); for ensembles without auth. */
    OPEN,
    /**
     * Only the authenticated identity that created them (digest user or SASL principal) may read or
     * change them ({@code auth::cdrwa}). Needs authentication.
     */
    CREATOR,
    /** The creator may change them, anyone may read them. Needs authentication. */
    CREATOR_WRITE_ANYONE_READ
  }

  /**
   * Settings of a {@link ZkStore}. Every setting has a default; with digest or SASL authentication
   * the ACL defaults to {@link Acl#CREATOR}, without to {@link Acl#OPEN}.
   */
  public static final class Builder {
    private final String connectString;
    private final CuratorFramework external;
    private String rootPath = DEFAULT_ROOT;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
    private String authScheme;
    private byte[] authValue;
    private String saslLoginContext;
    private Acl acl;
    private TokenKeys tokenKeys;
    private boolean followEnsembleConfig = true;

    private Builder(String connectString, CuratorFramework external) {
      this.connectString = connectString;
      this.external = external;
    }

    /**
     * The root path every node lives under, default {@value ZkStore#DEFAULT_ROOT}. Stores on
     * different root paths are independent (their epochs are unrelated). Missing parents ({@code
     * /apps} of {@code /apps/fenceline}) are created with the store's {@link #acl}, so with {@link
     * Acl#CREATOR} other users cannot create their own nodes beside it; create shared parents
     * beforehand if they need another ACL.
     *
     * @throws IllegalArgumentException if it is not an absolute path of {@code [A-Za-z0-9._-]}
     *     segments
     */
    public Builder rootPath(String rootPath) {
      this.rootPath = ZkPaths.validateRoot(rootPath);
      return this;
    }

    /**
     * The session timeout the client asks for (the ensemble grants a value between 2 and 20 of its
     * ticks by default). A holder's leases end when the ensemble expires its session, so a lease
     * effectively lasts at most as long as its holder stays connected, plus this timeout. Default
     * 15 s; keep it at or below the lease ttl (see {@link #connectionTimeout} for the longest
     * call).
     */
    public Builder sessionTimeout(Duration timeout) {
      this.sessionTimeout = positiveMillis("session timeout", timeout);
      return this;
    }

    /**
     * How long to wait for a connection, at open and for each try of an operation (Curator tries an
     * operation up to three times while the connection or session is lost); default 3 s. Each try's
     * request then waits at most 4 s for its answer ({@code zookeeper.request.timeout}), so one
     * call to an ensemble that stops answering ends within {@link ZkStore#callBound(Duration)}: 3 ×
     * (3 s + 4 s) + the sleeps between the tries (at most 0.2 + 0.4 s) = 21.6 s with the default
     * ({@link ZkStore#DEFAULT_CALL_BOUND}), below the default lease ttl of 30 s.
     */
    public Builder connectionTimeout(Duration timeout) {
      this.connectionTimeout = positiveMillis("connection timeout", timeout);
      return this;
    }

    /**
     * Authenticates with ZooKeeper's {@code digest} scheme as {@code user} with {@code password}
     * (never shown in messages). The nodes the store creates get {@link Acl#CREATOR} unless {@link
     * #acl} says otherwise.
     */
    public Builder digest(String user, String password) {
      requireNonNull(user, "user is null");
      requireNonNull(password, "password is null");
      if (user.isEmpty() || user.contains(":")) {
        throw new IllegalArgumentException(
            "Cannot use ZooKeeper digest user \""
                + user
                + "\": it is empty or contains ':' (write a plain name such as fenceline)");
      }
      return authorization("digest", (user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Adds authentication of another ZooKeeper scheme, passed to Curator as it is (the value is
     * never shown in messages).
     */
    public Builder authorization(String scheme, byte[] value) {
      requireNonNull(scheme, "scheme is null");
      requireNonNull(value, "value is null");
      this.authScheme = scheme;
      this.authValue = value.clone();
      return this;
    }

    /**
     * Authenticates with SASL (Kerberos or DIGEST-MD5) using the JAAS login context {@code
     * loginContext} (ZooKeeper's {@code zookeeper.sasl.clientconfig}, usually {@code Client}); the
     * JAAS file itself is configured as ZooKeeper documents ({@code
     * -Djava.security.auth.login.config=...}). Passed through to the ZooKeeper client.
     */
    public Builder sasl(String loginContext) {
      requireNonNull(loginContext, "loginContext is null");
      if (loginContext.isBlank()) {
        throw new IllegalArgumentException(
            "Cannot use a blank SASL login context (write the JAAS section name, e.g. Client)");
      }
      this.saslLoginContext = loginContext;
      return this;
    }

    /**
     * Whether the client follows the ensemble's own configuration of server addresses (Curator's
     * ensemble tracking, on by default: a dynamic reconfiguration reaches the client). Turn it off
     * when the connect string names addresses other than the servers' own (a proxy, a virtual IP,
     * NAT): with it on, the client moves to the addresses in the ensemble's configuration.
     */
    public Builder followEnsembleConfig(boolean follow) {
      this.followEnsembleConfig = follow;
      return this;
    }

    /** The ACL of the nodes the store creates (see {@link Acl}). */
    public Builder acl(Acl acl) {
      this.acl = requireNonNull(acl, "acl is null");
      return this;
    }

    /**
     * Signs the issuer's tokens with {@code keys} and makes the pointer stores refuse unsigned or
     * forged tokens (use the same keys everywhere the tokens travel).
     */
    public Builder tokenKeys(TokenKeys keys) {
      this.tokenKeys = requireNonNull(keys, "keys is null");
      return this;
    }

    /**
     * Connects (a store with its own client), waits for the connection and creates the root path
     * (with its missing parents), the store identity and the areas if they are missing.
     *
     * @throws IllegalArgumentException if the ACL needs authentication and none is configured
     * @throws StoreException if the ensemble cannot be reached in time or refuses access
     */
    public ZkStore build() {
      boolean authenticated = authScheme != null || saslLoginContext != null;
      Acl chosen = acl != null ? acl : authenticated ? Acl.CREATOR : Acl.OPEN;
      if (chosen != Acl.OPEN && !authenticated && external == null) {
        throw new IllegalArgumentException(
            "Cannot use ACL "
                + chosen
                + " without authentication: configure digest(user, password) or sasl(context),"
                + " or use Acl.OPEN");
      }
      List<ACL> acls = acls(chosen);
      if (external != null) {
        return new ZkStore(this, external, false, "zookeeper://", acls, new CallDeadline());
      }
      CallDeadline deadline = new CallDeadline();
      CallRetry retry =
          new CallRetry(deadline, callBound(connectionTimeout), tryBound(connectionTimeout));
      CuratorFramework client =
          new OwnedClient(
                  connectString,
                  followEnsembleConfig,
                  sessionTimeout,
                  connectionTimeout,
                  authScheme,
                  authValue,
                  saslLoginContext)
              .start(acls, retry);
      retry.waitsFor(client.getZookeeperClient());
      try {
        return new ZkStore(this, client, true, "zookeeper://" + connectString, acls, deadline);
      } catch (RuntimeException e) {
        OwnedClient.closeWithoutWaiting(client);
        throw e;
      }
    }

    private static List<ACL> acls(Acl acl) {
      return switch (acl) {
        case OPEN -> ZooDefs.Ids.OPEN_ACL_UNSAFE;
        case CREATOR -> ZooDefs.Ids.CREATOR_ALL_ACL;
        case CREATOR_WRITE_ANYONE_READ -> {
          List<ACL> both = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
          both.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
          yield List.copyOf(both);
        }
      };
    }

    /**
     * {@code value} if it is a timeout the builder takes: 1 ms to 24 days.
     *
     * @throws IllegalArgumentException if it is not
     */
    static Duration positiveMillis(String what, Duration value) {
      requireNonNull(value, what + " is null");
      if (value.toMillis() < 1 || value.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "Cannot use ZooKeeper "
                + what
                + " "
                + value
                + ": it must be between 1 ms and 24 days (e.g. PT30S)");
      }
      return value;
    }
  }
}
