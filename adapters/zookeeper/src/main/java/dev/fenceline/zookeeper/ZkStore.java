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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;
import org.apache.curator.ensemble.fixed.FixedEnsembleProvider;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
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
 * <p>Thread-safe.
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
  private final List<ACL> acls;
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
    this.acls = acls;
    this.owned = owned;
    this.paths = new ZkPaths(builder.rootPath);
    this.shown = shown + builder.rootPath;
    this.tokenKeys = builder.tokenKeys;
    this.connectionTimeout = builder.connectionTimeout;
    awaitConnected();
    ensureRoot();
    for (String path : List.of(paths.leases(), paths.pointers(), paths.clock())) {
      ensure(path, "create " + path);
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
    if (deadline.get() != null) {
      return body.get();
    }
    deadline.set(System.nanoTime() + callBound().toNanos());
    try {
      return body.get();
    } finally {
      deadline.clear();
    }
  }

  /**
   * True if the current call has time left for one more whole try (always outside a call): a read
   * that decides an unknown outcome only starts then.
   */
  boolean timeLeftForATry() {
    Long end = deadline.get();
    return end == null || System.nanoTime() + tryBound(connectionTimeout).toNanos() <= end;
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

  /** The client's current session (a new one after the ensemble expired the last). */
  long sessionId(String action) {
    try {
      return client.getZookeeperClient().getZooKeeper().getSessionId();
    } catch (Exception e) {
      throw failure(action + " (read the session)", e, false);
    }
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

  // ---- operations shared by the issuer and the pointer stores ------------------------------

  /** A node's data and its stat. */
  record Node(byte[] data, Stat stat) {}

  /**
   * A point after which this client's reads see every change acknowledged before it was taken, as
   * long as the client keeps its ZooKeeper session ({@link #holds}).
   */
  static final class Barrier {
    private final Object handle;

    private Barrier(Object handle) {
      this.handle = handle;
    }
  }

  /** The ensemble's time at a barrier (see {@link #ensembleNow}). */
  record Now(Instant instant, Barrier barrier) {}

  /**
   * The ensemble's time now: writes the clock node (never refused) and returns the time the leader
   * stamped on the write. The write went through a quorum, so it is also a {@link #barrier}.
   */
  Now ensembleNow(String action) {
    Object handle = handle(action);
    try {
      Stat stat = client.setData().forPath(paths.clock(), new byte[0]);
      return new Now(Instant.ofEpochMilli(stat.getMtime()), new Barrier(handle));
    } catch (Exception e) {
      throw failure(action + " (write the clock node " + paths.clock() + ")", e, false);
    }
  }

  /**
   * Makes the next reads of this client see every change acknowledged before this call (R5): a
   * transaction with one version-less {@code check} of the root, which changes nothing but commits
   * through a quorum like a write, so this client's server has applied everything before it when it
   * answers. ZooKeeper's own {@code sync} is not such a barrier (ZOOKEEPER-1675: a leader that lost
   * its quorum and does not know yet answers it). A read is only covered if the session did not
   * change since ({@link #holds}): a new session may reach a server that is behind.
   */
  Barrier barrier(String action) {
    Object handle = handle(action);
    try {
      client.transaction().forOperations(List.of(check(paths.root(), -1)));
      return new Barrier(handle);
    } catch (Exception e) {
      throw failure(action + " (a read barrier through the quorum)", e, false);
    }
  }

  /** True if this client still has the session it had when {@code barrier} was taken. */
  boolean holds(Barrier barrier, String action) {
    return handle(action) == barrier.handle;
  }

  private Object handle(String action) {
    try {
      return client.getZookeeperClient().getZooKeeper();
    } catch (Exception e) {
      throw failure(action + " (the ZooKeeper session)", e, false);
    }
  }

  /** The node at {@code path}, or empty if it does not exist. */
  Optional<Node> read(String path, String action) {
    try {
      Stat stat = new Stat();
      byte[] data = client.getData().storingStatIn(stat).forPath(path);
      if (stat.getCzxid() == 0) {
        // Curator answered with neither data nor NoNode (it does so when called from inside another
        // Curator operation's retry loop on the same thread): nothing is known about the node.
        throw new StoreException(
            "Cannot "
                + action
                + " at "
                + shown
                + ": ZooKeeper answered the read of "
                + path
                + " with no node and no error (is Fenceline called from inside a Curator"
                + " operation on this thread?)",
            null,
            false);
      }
      return Optional.of(new Node(data == null ? new byte[0] : data, stat));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw failure(action + " (read " + path + ")", e, false);
    }
  }

  /** The stat of the node at {@code path}, or empty if it does not exist. */
  Optional<Stat> exists(String path, String action) {
    try {
      return Optional.ofNullable(client.checkExists().forPath(path));
    } catch (Exception e) {
      throw failure(action + " (check " + path + ")", e, false);
    }
  }

  /**
   * Creates a persistent node with {@code data} unless one exists (its data is then left as it is).
   * A create whose answer was lost and that Curator retried finds its own node: the same.
   */
  void ensure(String path, byte[] data, String action) {
    try {
      client.create().withMode(CreateMode.PERSISTENT).withACL(acls).forPath(path, data);
    } catch (KeeperException.NodeExistsException e) {
      // Created before, by this or another process.
    } catch (Exception e) {
      throw failure(action + " (create " + path + ")", e, false);
    }
  }

  private void ensure(String path, String action) {
    ensure(path, new byte[0], action);
  }

  /**
   * Creates the root path and any missing parents ({@code /apps} of {@code /apps/fenceline}), all
   * with the store's ACL. Only the root: below it a missing parent means someone deleted the
   * store's nodes, and recreating them would start the epochs again.
   */
  private void ensureRoot() {
    String path = paths.root();
    try {
      client
          .create()
          .creatingParentsIfNeeded()
          .withMode(CreateMode.PERSISTENT)
          .withACL(acls, true)
          .forPath(path, new byte[0]);
    } catch (KeeperException.NodeExistsException e) {
      // Created before, by this or another process.
    } catch (Exception e) {
      throw failure("create the root path " + path, e, false);
    }
  }

  /** A transaction operation that creates {@code path} with {@code data} and the store's ACL. */
  CuratorOp create(String path, byte[] data, CreateMode mode) {
    try {
      return client.transactionOp().create().withMode(mode).withACL(acls).forPath(path, data);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a create operation", e);
    }
  }

  /**
   * A transaction operation that sets the data of {@code path} if its version is {@code version}.
   */
  CuratorOp setData(String path, byte[] data, int version) {
    try {
      return client.transactionOp().setData().withVersion(version).forPath(path, data);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a setData operation", e);
    }
  }

  /** A transaction operation that deletes {@code path} if its version is {@code version}. */
  CuratorOp delete(String path, int version) {
    try {
      return client.transactionOp().delete().withVersion(version).forPath(path);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a delete operation", e);
    }
  }

  /** A transaction operation that checks that {@code path} is at {@code version}. */
  CuratorOp check(String path, int version) {
    try {
      return client.transactionOp().check().withVersion(version).forPath(path);
    } catch (Exception e) {
      throw new IllegalStateException("Curator refused to build a check operation", e);
    }
  }

  /**
   * Runs {@code ops} as one ZooKeeper multi-operation transaction: all or nothing.
   *
   * @return the results, or empty if the ensemble refused the transaction because a version check
   *     or an existence check failed (another step changed a node since it was read; nothing of the
   *     transaction was applied, but an earlier attempt Curator sent after a lost answer may have
   *     been)
   * @throws StoreException if the ensemble could not be reached or refused otherwise; {@link
   *     StoreException#outcomeUnknown()} is true if the transaction may have been applied
   */
  Optional<List<CuratorTransactionResult>> multi(List<CuratorOp> ops, String action) {
    try {
      return Optional.of(client.transaction().forOperations(ops));
    } catch (KeeperException.BadVersionException
        | KeeperException.NodeExistsException
        | KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw failure(action, e, true);
    }
  }

  /**
   * The failure of {@code action}, classified: a lost connection or session during a write leaves
   * its outcome unknown; a refused authorization names the fix. Never shows credentials.
   */
  StoreException failure(String action, Exception e, boolean write) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (e instanceof StoreException store) {
      return store;
    }
    String reason;
    boolean unknown = false;
    if (e instanceof KeeperException keeper) {
      KeeperException.Code code = keeper.code();
      switch (code) {
        case CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, SESSIONMOVED, REQUESTTIMEOUT -> {
          reason =
              "the connection to the ensemble was lost ("
                  + code
                  + "); is a quorum up and reachable?";
          unknown = write;
        }
        case NOAUTH, AUTHFAILED ->
            reason =
                "ZooKeeper refused access ("
                    + code
                    + "): the node's ACL does not admit this client; authenticate as the user the"
                    + " nodes were created with (digest or SASL), or use another root path";
        case INVALIDACL ->
            reason =
                "ZooKeeper refused the ACL (INVALIDACL): the creator ACL needs an authenticated"
                    + " identity and the client has no authenticated identity (check auth-digest, or"
                    + " for SASL the JAAS file in -Djava.security.auth.login.config and its login"
                    + " context; the client goes on unauthenticated when the SASL login fails)";
        default -> reason = "ZooKeeper answered " + code;
      }
    } else {
      reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      unknown = write;
    }
    String suffix =
        unknown ? " (the write may have been applied: look the operation up or retry it)" : "";
    return new StoreException(
        "Cannot " + action + " at " + shown + ": " + reason + suffix, e, unknown);
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
    ensure(paths.store(), fresh.getBytes(StandardCharsets.UTF_8), "create the store identity");
    Node node =
        read(paths.store(), "read the store identity")
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
      CuratorFrameworkFactory.Builder curator =
          CuratorFrameworkFactory.builder()
              .ensembleProvider(new FixedEnsembleProvider(connectString, followEnsembleConfig))
              .ensembleTracker(followEnsembleConfig)
              .sessionTimeoutMs((int) sessionTimeout.toMillis())
              .connectionTimeoutMs((int) connectionTimeout.toMillis())
              .retryPolicy(
                  new CallRetry(
                      deadline, callBound(connectionTimeout), tryBound(connectionTimeout)))
              .aclProvider(provider(acls));
      if (authScheme != null) {
        curator.authorization(authScheme, authValue);
      }
      ZKClientConfig config = new ZKClientConfig();
      // Without it a request queued while the connection is down waits for the client's own
      // connect attempt, up to the whole session timeout, on every try of Curator's retry loop.
      config.setProperty(
          ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Long.toString(REQUEST_TIMEOUT.toMillis()));
      if (saslLoginContext != null) {
        config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "true");
        config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, saslLoginContext);
      } else {
        config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
      }
      curator.zkClientConfig(config);
      CuratorFramework client = curator.build();
      client.start();
      try {
        return new ZkStore(this, client, true, "zookeeper://" + connectString, acls, deadline);
      } catch (RuntimeException e) {
        closeWithoutWaiting(client);
        throw e;
      }
    }

    /**
     * Closes a client whose store failed to open on another thread: closing sends the end of the
     * session and waits up to the request timeout for its answer, which a server that does not
     * answer never sends, so the error reaches the caller after the time it names.
     */
    private static void closeWithoutWaiting(CuratorFramework client) {
      Thread closer = new Thread(client::close, "fenceline-zk-close");
      closer.setDaemon(true);
      closer.start();
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

    private static ACLProvider provider(List<ACL> acls) {
      return new ACLProvider() {
        @Override
        public List<ACL> getDefaultAcl() {
          return acls;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
          return acls;
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

  /** The deadline of the call running on each thread (System.nanoTime), or null outside a call. */
  static final class CallDeadline {
    private final ThreadLocal<Long> end = new ThreadLocal<>();

    Long get() {
      return end.get();
    }

    void set(long nanos) {
      end.set(nanos);
    }

    void clear() {
      end.remove();
    }
  }

  /**
   * Curator's bounded exponential back-off (base 100 ms, at most 1 s, {@link #RETRIES} retries)
   * that starts a retry only if the sleep and a whole try still end before the call's deadline (an
   * operation outside a call: its own start plus the call bound).
   */
  static final class CallRetry implements RetryPolicy {
    private final CallDeadline deadline;
    private final long boundNanos;
    private final long tryNanos;

    CallRetry(CallDeadline deadline, Duration bound, Duration oneTry) {
      this.deadline = deadline;
      this.boundNanos = bound.toNanos();
      this.tryNanos = oneTry.toNanos();
    }

    /** The longest sleep before retry {@code retry} (0 for the first retry). */
    static long longestSleepMillis(int retry) {
      return Math.min(MAX_RETRY_SLEEP.toMillis(), BASE_RETRY_SLEEP.toMillis() << (retry + 1));
    }

    @Override
    public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
      if (retryCount >= RETRIES) {
        return false;
      }
      long now = System.nanoTime();
      Long end = deadline.get();
      long until =
          end != null ? end : now - TimeUnit.MILLISECONDS.toNanos(elapsedTimeMs) + boundNanos;
      long sleep =
          Math.min(
              MAX_RETRY_SLEEP.toMillis(),
              BASE_RETRY_SLEEP.toMillis()
                  * Math.max(1, ThreadLocalRandom.current().nextInt(1 << (retryCount + 1))));
      if (now + TimeUnit.MILLISECONDS.toNanos(sleep) + tryNanos > until) {
        return false;
      }
      try {
        sleeper.sleepFor(sleep, TimeUnit.MILLISECONDS);
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
