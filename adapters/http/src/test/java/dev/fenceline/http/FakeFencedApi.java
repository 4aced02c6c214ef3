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
package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.fenceline.jdbc.JdbcChange;
import dev.fenceline.jdbc.JdbcDestination;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.jdbc.OpenStore;
import dev.fenceline.jdbc.SqliteDatabase;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.tck.PausePoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small API that checks fencing tokens itself, the way {@link NativeHttpDestination} expects: a
 * JDK {@link HttpServer} on a free port in front of a fenced JDBC destination on SQLite, which does
 * the atomic epoch check and operation record. Every business request ({@code POST /reports} and
 * any other changing request) inserts its body into table {@code api_report}.
 *
 * <p>Protocol (under {@code /p/<profile>}, see {@link #configuredFor}): the {@code Fencing-Token}
 * header is decoded with {@link TokenHeaderFormat#decodeFull}, the {@code Idempotency-Key} is the
 * JDBC operation ID. Applied: 201 with the receipt JSON; already applied: 201 with {@code
 * Idempotent-Replayed: true} and the stored receipt; stale: 409 with {@code current-epoch};
 * untrusted: 403 with {@code error: untrusted-token}; key reused with another request: 422. Plus
 * {@code POST /fencing/register}, {@code GET /fencing/epoch?resource=}, {@code GET
 * /fencing/operations?resource=&key=} and {@code POST /fencing/reset?resource=&epoch=&reason=}.
 *
 * <p>A profile is one client's view: the {@link StepListener} and {@link TokenKeys} its JDBC
 * destination uses, so the suite's pause points stop the API's handler inside the JDBC transaction.
 */
final class FakeFencedApi implements AutoCloseable {

  static final String JDBC_DESTINATION = "fake-api";
  static final String REPLAY_HEADER = "Idempotent-Replayed";

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final SqliteDatabase database;
  private final OpenStore stores;
  private final Map<String, Profile> profiles = new ConcurrentHashMap<>();
  private final AtomicInteger profileIds = new AtomicInteger();
  private final Map<String, OperationId> operationNames = new ConcurrentHashMap<>();
  private final Queue<Map.Entry<Integer, ObjectNode>> scriptedAnswers =
      new ConcurrentLinkedQueue<>();
  private final AtomicInteger businessRequests = new AtomicInteger();
  private final Object handledMonitor = new Object();
  private int businessRequestsHandled;
  private volatile Integer lookupStatus;
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final AtomicReference<String> lastAuthorization = new AtomicReference<>();
  private volatile String requiredBearer;
  private volatile HttpServer server;

  FakeFencedApi(Path directory) {
    this.database = new SqliteDatabase(directory);
    this.stores = new OpenStore(() -> database);
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS api_report (resource VARCHAR(200) NOT NULL,"
              + " seq BIGINT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (resource, seq))");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    start();
  }

  /** The builder of a destination speaking this API's protocol, everything declared. */
  static NativeHttpDestination.Builder configuredFor(URI baseUri) {
    return configuredWithoutLookupFor(baseUri)
        .lookupRequest("/fencing/operations?resource={resource}&key={idempotency-key}");
  }

  /** As {@link #configuredFor}, but without the lookup request. */
  static NativeHttpDestination.Builder configuredWithoutLookupFor(URI baseUri) {
    return NativeHttpDestination.builder()
        .baseUri(baseUri)
        .staleTokenStatus(409)
        .currentEpochPointer("/current-epoch")
        .untrustedTokenStatus(403)
        .untrustedTokenMarker("/error", "untrusted-token")
        .conflictStatus(422)
        .replayMarkedBy(ReplayMarker.header(REPLAY_HEADER, "true"))
        .registerRequest("/fencing/register")
        .currentEpochRequest("/fencing/epoch?resource={resource}")
        .resetRequest("/fencing/reset?resource={resource}&epoch={epoch}&reason={reason}")
        .epochPointer("/epoch")
        .recordedAtPointer("/recorded-at")
        .receiptAttribute("rows", "/attributes/rows");
  }

  /** One client's view of the API: its own pause points and token keys. */
  final class Profile {
    private final String id;
    private final StepListener steps;
    private final Optional<TokenKeys> keys;
    private final AtomicReference<RuntimeException> crash = new AtomicReference<>();

    private Profile(String id, StepListener steps, Optional<TokenKeys> keys) {
      this.id = id;
      this.steps = steps;
      this.keys = keys;
    }

    /** The base URI a destination of this profile uses (valid until the next restart). */
    URI baseUri() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/p/" + id);
    }

    /** The failure a step listener threw inside the API since the last call, if any. */
    Optional<RuntimeException> takeCrash() {
      return Optional.ofNullable(crash.getAndSet(null));
    }

    private JdbcDestination destination() {
      StepListener reporting =
          (step, token, operation) -> {
            try {
              steps.reached(step, token, operationNames.getOrDefault(operation.value(), operation));
            } catch (RuntimeException e) {
              crash.set(e);
              throw e;
            }
          };
      return stores.get(keys).destination(JDBC_DESTINATION, reporting);
    }
  }

  /** A new profile whose JDBC destination reports to {@code steps} and checks {@code keys}. */
  Profile profile(StepListener steps, Optional<TokenKeys> keys) {
    Profile profile =
        new Profile(
            Integer.toString(profileIds.incrementAndGet()),
            requireNonNull(steps, "steps"),
            requireNonNull(keys, "keys"));
    profiles.put(profile.id, profile);
    return profile;
  }

  /** Lets step listeners see {@code operation} where the API sees its idempotency key. */
  void nameOperation(String idempotencyKey, OperationId operation) {
    operationNames.put(idempotencyKey, operation);
  }

  /** From now on every request must carry {@code Authorization: Bearer <token>}. */
  void requireBearer(String token) {
    this.requiredBearer = token;
  }

  /** The {@code Authorization} header of the last request, if any. */
  Optional<String> lastAuthorization() {
    return Optional.ofNullable(lastAuthorization.get());
  }

  /** The next business request is answered {@code status} with {@code message}, not processed. */
  void answerNextWriteWith(int status, String message) {
    scriptedAnswers.add(Map.entry(status, message(message)));
  }

  /** The next business request is answered as an untrusted token (403), not processed. */
  void answerNextWriteAsUntrusted(String message) {
    scriptedAnswers.add(Map.entry(403, message(message).put("error", "untrusted-token")));
  }

  /** From now on every lookup is answered {@code status} (not 200 or 404), not processed. */
  void failLookupsWith(int status) {
    this.lookupStatus = status;
  }

  /** How many business requests arrived (processed or not). */
  int businessRequests() {
    return businessRequests.get();
  }

  /**
   * Waits until {@code count} business requests have arrived; fails after {@link
   * PausePoints#TIMEOUT}.
   */
  void awaitBusinessRequests(int count) {
    awaitCondition(() -> businessRequests.get() >= count, count + " business requests arrived");
  }

  /**
   * Waits until {@code count} business requests were handled to the end (answered, or their answer
   * failed to go out); fails after {@link PausePoints#TIMEOUT}.
   */
  void awaitBusinessRequestsHandled(int count) {
    awaitCondition(
        () -> businessRequestsHandled >= count, count + " business requests were handled");
  }

  private void awaitCondition(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + PausePoints.TIMEOUT.toNanos();
    synchronized (handledMonitor) {
      while (!condition.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("the fake API waited in vain until " + what);
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(handledMonitor, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted while waiting until " + what, e);
        }
      }
    }
  }

  private void signal(Runnable change) {
    synchronized (handledMonitor) {
      change.run();
      handledMonitor.notifyAll();
    }
  }

  /** The lease issuer on the API's database (a new instance after a restart). */
  JdbcStore store() {
    return stores.get();
  }

  /** Stops the server and the database and starts both again on the same file (new port). */
  void restart() {
    server.stop(0);
    stores.restartDatabase();
    start();
  }

  Optional<String> published(ResourceId resource) {
    return query(
        "SELECT body FROM api_report WHERE resource = ? ORDER BY seq DESC LIMIT 1",
        resource,
        rows -> rows.next() ? Optional.of(rows.getString(1)) : Optional.empty());
  }

  long applyCount(ResourceId resource) {
    return query(
        "SELECT COUNT(*) FROM api_report WHERE resource = ?",
        resource,
        rows -> {
          rows.next();
          return rows.getLong(1);
        });
  }

  @Override
  public void close() {
    server.stop(0);
    handlers.shutdownNow();
    stores.close();
  }

  private void start() {
    try {
      HttpServer started =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
      started.setExecutor(handlers);
      started.createContext("/", this::handle);
      started.start();
      server = started;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      String[] parts = path.split("/", 4);
      Profile profile = parts.length == 4 && parts[1].equals("p") ? profiles.get(parts[2]) : null;
      if (profile == null) {
        answer(exchange, 404, message("no such profile"));
        return;
      }
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      lastAuthorization.set(authorization);
      if (requiredBearer != null && !("Bearer " + requiredBearer).equals(authorization)) {
        answer(exchange, 401, message("missing or wrong bearer token"));
        return;
      }
      String rest = "/" + parts[3];
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      String method = exchange.getRequestMethod();
      try {
        switch (method + " " + rest) {
          case "POST /fencing/register" -> register(exchange, profile);
          case "GET /fencing/epoch" ->
              answer(
                  exchange,
                  200,
                  JSON.createObjectNode()
                      .put(
                          "current-epoch",
                          profile.destination().currentEpoch(resource(query)).value()));
          case "GET /fencing/operations" -> lookup(exchange, profile, query);
          case "POST /fencing/reset" -> reset(exchange, profile, query);
          default -> {
            if (method.equals("GET")) {
              answer(exchange, 404, message("no such endpoint"));
            } else {
              write(exchange, profile, method, rest);
            }
          }
        }
      } catch (UntrustedTokenException e) {
        answer(exchange, 403, message(e.getMessage()).put("error", "untrusted-token"));
      } catch (OperationConflictException e) {
        answer(exchange, 422, message(e.getMessage()));
      } catch (IllegalArgumentException e) {
        answer(exchange, 400, message(e.getMessage()));
      } catch (RuntimeException e) {
        answer(exchange, 500, message("internal error"));
      }
    }
  }

  private void write(HttpExchange exchange, Profile profile, String method, String rest)
      throws IOException {
    signal(businessRequests::incrementAndGet);
    try {
      process(exchange, profile, method, rest);
    } finally {
      signal(() -> businessRequestsHandled++);
    }
  }

  private void process(HttpExchange exchange, Profile profile, String method, String rest)
      throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    Map.Entry<Integer, ObjectNode> scripted = scriptedAnswers.poll();
    if (scripted != null) {
      answer(exchange, scripted.getKey(), scripted.getValue());
      return;
    }
    FencingToken token = token(exchange);
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    if (key == null) {
      answer(exchange, 400, message("Idempotency-Key is required"));
      return;
    }
    String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
    // What the API compares when a key comes back: method, path, media type and body.
    RequestFingerprint fingerprint =
        RequestFingerprint.sha256(
            method
                + " "
                + rest
                + "\n"
                + contentType
                + "\n"
                + RequestFingerprint.sha256(body).value());
    String text = new String(body, StandardCharsets.UTF_8);
    JdbcChange insert =
        (connection, fenced, operation) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO api_report (resource, seq, body) SELECT ?, COALESCE(MAX(seq), 0) +"
                      + " 1, ? FROM api_report WHERE resource = ?")) {
            statement.setString(1, fenced.resource().value());
            statement.setString(2, text);
            statement.setString(3, fenced.resource().value());
            return Map.of("rows", Integer.toString(statement.executeUpdate()));
          }
        };
    WriteOutcome outcome =
        profile
            .destination()
            .write(token, OperationId.of(key), JdbcChange.fingerprinted(fingerprint, insert));
    if (outcome instanceof Applied applied) {
      answer(exchange, 201, receipt(applied.receipt()));
    } else if (outcome instanceof AlreadyApplied already) {
      exchange.getResponseHeaders().add(REPLAY_HEADER, "true");
      answer(exchange, 201, receipt(already.receipt()));
    } else {
      answer(exchange, 409, stale((RejectedStale) outcome, "write"));
    }
  }

  private void register(HttpExchange exchange, Profile profile) throws IOException {
    RegisterOutcome outcome = profile.destination().register(token(exchange));
    if (outcome instanceof Registered registered) {
      answer(
          exchange,
          200,
          JSON.createObjectNode()
              .put("current-epoch", registered.epoch().value())
              .put("previous-epoch", registered.previous().value()));
    } else {
      answer(exchange, 409, stale((RejectedStale) outcome, "register"));
    }
  }

  private void lookup(HttpExchange exchange, Profile profile, Map<String, String> query)
      throws IOException {
    Integer failing = lookupStatus;
    if (failing != null) {
      answer(exchange, failing, message("lookups are failing"));
      return;
    }
    Optional<Receipt> receipt =
        profile.destination().lookup(resource(query), OperationId.of(required(query, "key")));
    if (receipt.isPresent()) {
      answer(exchange, 200, receipt(receipt.get()));
    } else {
      answer(exchange, 404, message("no operation with this key"));
    }
  }

  private void reset(HttpExchange exchange, Profile profile, Map<String, String> query)
      throws IOException {
    Epoch previous =
        profile
            .destination()
            .resetRegisteredEpoch(
                resource(query),
                Epoch.of(Long.parseLong(required(query, "epoch"))),
                query.getOrDefault("reason", "reset through the fake API"));
    answer(exchange, 200, JSON.createObjectNode().put("previous-epoch", previous.value()));
  }

  private static FencingToken token(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Fencing-Token");
    if (header == null) {
      throw new IllegalArgumentException("Fencing-Token is required");
    }
    return TokenHeaderFormat.decodeFull(header);
  }

  private static ObjectNode receipt(Receipt receipt) {
    ObjectNode node =
        JSON.createObjectNode()
            .put("resource", receipt.resource().value())
            .put("epoch", receipt.epoch().value())
            .put("recorded-at", receipt.recordedAt().toString());
    ObjectNode attributes = node.putObject("attributes");
    receipt.attributes().forEach(attributes::put);
    return node;
  }

  private static ObjectNode stale(RejectedStale stale, String action) {
    return message(stale.describe(action)).put("current-epoch", stale.current().value());
  }

  private static ObjectNode message(String text) {
    return JSON.createObjectNode().put("message", text);
  }

  private static void answer(HttpExchange exchange, int status, ObjectNode body)
      throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static ResourceId resource(Map<String, String> query) {
    return ResourceId.of(required(query, "resource"));
  }

  private static String required(Map<String, String> query, String name) {
    String value = query.get(name);
    if (value == null) {
      throw new IllegalArgumentException("query parameter " + name + " is required");
    }
    return value;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> values = new HashMap<>();
    if (raw == null) {
      return values;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        values.put(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  private interface RowsReader<T> {
    T read(ResultSet rows) throws SQLException;
  }

  private <T> T query(String sql, ResourceId resource, RowsReader<T> reader) {
    try (Connection connection = database.connect();
        PreparedStatement select = connection.prepareStatement(sql)) {
      select.setString(1, resource.value());
      try (ResultSet rows = select.executeQuery()) {
        return reader.read(rows);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
