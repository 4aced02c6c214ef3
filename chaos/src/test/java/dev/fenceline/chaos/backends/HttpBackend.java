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
package dev.fenceline.chaos.backends;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.fenceline.chaos.StoreFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake external payments API in this JVM (JDK {@link HttpServer}) that behaves like a careful
 * one: {@code POST /payments/{resource}} needs an {@code Idempotency-Key}; the same key with the
 * same body replays the stored answer ({@code Idempotent-Replayed: true}), the same key with
 * another body is {@code 422}; {@code GET /payments?idempotency_key=K} finds a payment by its key
 * ({@code {"data":[record]}} or {@code {"data":[]}}). State lives in memory for the life of the
 * backend. The YAML declares a {@code type: http} destination {@code payments} over it with a
 * lookup and {@code keys-honoured: true} (the configuration docs/http.md calls safe), its intents
 * in a SQLite file that is also the issuer.
 *
 * <p>Store faults, in the fake API itself until {@link StoreFaults#heal}: {@code api-5xx} answers
 * {@code 503} to every request without processing it; {@code api-drop-answers} processes every
 * payment {@code POST} (records it) and then closes the connection without answering (lookups are
 * still answered, so a client can resolve what landed).
 */
public final class HttpBackend implements ChaosBackend {

  /** The faults this backend injects. */
  public static final List<String> FAULTS = List.of("api-5xx", "api-drop-answers");

  private enum Mode {
    NORMAL,
    FIVE_XX,
    DROP_ANSWERS
  }

  /** One payment the API applied. */
  private record Payment(String id, String key, String resource, byte[] body, String answer) {}

  private final Path workDir;
  private final HttpServer server;
  private final ExecutorService executor;
  private final Map<String, Payment> byKey = new HashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger posts = new AtomicInteger();
  private volatile Mode mode = Mode.NORMAL;
  private final Faults faults = new Faults();

  private HttpBackend(Path workDir, HttpServer server, ExecutorService executor) {
    this.workDir = workDir;
    this.server = server;
    this.executor = executor;
  }

  /** Starts the API on a free loopback port; the intent database goes to {@code workDir}. */
  public static HttpBackend start(Path workDir) {
    try {
      Files.createDirectories(workDir);
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
      ExecutorService executor = Executors.newCachedThreadPool();
      server.setExecutor(executor);
      HttpBackend backend = new HttpBackend(workDir.toAbsolutePath(), server, executor);
      server.createContext("/payments", backend::handle);
      server.start();
      return backend;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the fake payments API", e);
    }
  }

  @Override
  public String name() {
    return "http";
  }

  @Override
  public String destination() {
    return "payments";
  }

  /** {@return the API's base URL, e.g. {@code http://127.0.0.1:40123}} */
  public String baseUri() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** {@return how many payments the API applied (one per idempotency key)} */
  public synchronized int payments() {
    return byKey.size();
  }

  /** {@return how many payment POSTs reached the API (replays, refusals and faults included)} */
  public int postsReceived() {
    return posts.get();
  }

  @Override
  public Path writeConfig(Path dir) {
    String yaml =
        String.join(
            "\n",
            "# Fake payments API " + baseUri() + ", written by HttpBackend",
            "stores:",
            "  main:",
            "    type: jdbc",
            "    url: " + Yaml.quote("jdbc:sqlite:" + workDir.resolve("intents.db")),
            "    lock-timeout: 5s",
            "issuer: main",
            "lease:",
            "  ttl: 5s",
            "allow-fenced-at-intent: true",
            "destinations:",
            "  payments:",
            "    type: http",
            "    base-uri: " + baseUri(),
            "    intent-store: main",
            // 1 s let the driver's one final lookup time out on a loaded 2-core machine.
            "    attempt-time-limit: 3s",
            "    max-attempts: 3",
            "    backoff:",
            "      initial: 50ms",
            "      multiplier: 2.0",
            "      max: 200ms",
            "    lookup:",
            "      path: \"/payments?idempotency_key={key}\"",
            "      record-pointer: /data/0",
            "      key-pointer: /idempotency_key",
            "    keys-honoured: true",
            "    receipt-fields:",
            "      payment-id: /id",
            "    request:",
            "      method: POST",
            "      path: \"/payments/{resource}\"",
            "      content-type: text/plain",
            "");
    return Yaml.write(dir, yaml);
  }

  @Override
  public StoreFaults storeFaults() {
    return faults;
  }

  @Override
  public Map<String, String> endpoints() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    endpoints.put("api", baseUri());
    endpoints.put("intents", "jdbc:sqlite:" + workDir.resolve("intents.db"));
    return endpoints;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      if (method.equals("POST") && path.startsWith("/payments/")) {
        posts.incrementAndGet();
      }
      Mode now = mode;
      if (now == Mode.FIVE_XX) {
        answer(exchange, 503, "{\"error\":\"service unavailable (injected api-5xx)\"}");
        return;
      }
      if (method.equals("GET") && path.equals("/payments")) {
        lookup(exchange);
      } else if (method.equals("POST") && path.startsWith("/payments/") && path.length() > 10) {
        String resource = URLDecoder.decode(path.substring(10), StandardCharsets.UTF_8);
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        if (key == null || key.isBlank()) {
          answer(exchange, 400, "{\"error\":\"Idempotency-Key header is required\"}");
          return;
        }
        Reply reply = pay(key, resource, body);
        if (now == Mode.DROP_ANSWERS) {
          // Processed; the answer is lost: close the connection without a status line.
          return;
        }
        if (reply.replayed()) {
          exchange.getResponseHeaders().set("Idempotent-Replayed", "true");
        }
        answer(exchange, reply.status(), reply.body());
      } else {
        answer(exchange, 404, "{\"error\":\"no such endpoint: " + method + " " + path + "\"}");
      }
    }
  }

  private record Reply(int status, String body, boolean replayed) {}

  private synchronized Reply pay(String key, String resource, byte[] body) {
    Payment known = byKey.get(key);
    if (known != null) {
      if (!known.resource().equals(resource) || !Arrays.equals(known.body(), body)) {
        return new Reply(
            422,
            "{\"error\":\"idempotency key " + json(key) + " was used with another request\"}",
            false);
      }
      return new Reply(201, known.answer(), true);
    }
    String id = "pay-" + ids.incrementAndGet();
    String answer =
        "{\"id\":\""
            + id
            + "\",\"idempotency_key\":\""
            + json(key)
            + "\",\"resource\":\""
            + json(resource)
            + "\",\"status\":\"succeeded\"}";
    byKey.put(key, new Payment(id, key, resource, body, answer));
    return new Reply(201, answer, false);
  }

  private void lookup(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String key = null;
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.startsWith("idempotency_key=")) {
          key = URLDecoder.decode(pair.substring(16), StandardCharsets.UTF_8);
        }
      }
    }
    if (key == null) {
      answer(exchange, 400, "{\"error\":\"idempotency_key is required\"}");
      return;
    }
    Payment payment;
    synchronized (this) {
      payment = byKey.get(key);
    }
    answer(exchange, 200, "{\"data\":[" + (payment == null ? "" : payment.answer()) + "]}");
  }

  private static void answer(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static String json(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private final class Faults implements StoreFaults {

    @Override
    public List<String> kinds() {
      return FAULTS;
    }

    @Override
    public String inject(String kind, Random random) {
      switch (kind) {
        case "api-5xx" -> mode = Mode.FIVE_XX;
        case "api-drop-answers" -> mode = Mode.DROP_ANSWERS;
        default ->
            throw new IllegalArgumentException(
                "Cannot inject fault '"
                    + kind
                    + "' on the fake payments API: the kinds are "
                    + FAULTS);
      }
      return kind + " at " + baseUri();
    }

    @Override
    public void heal() {
      mode = Mode.NORMAL;
    }

    @Override
    public void close() {
      // The API belongs to the backend; its close() stops it.
    }
  }
}
