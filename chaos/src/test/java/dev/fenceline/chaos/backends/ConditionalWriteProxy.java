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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy in the driver JVM in front of an S3 test server that forwards every request (bodies
 * streamed both ways) and sends the conditional writes ({@code PUT} or {@code POST} with {@code
 * If-Match} / {@code If-None-Match}) to one key one at a time, so that they are atomic for every
 * worker process: S3Proxy 4.1.0 and S3Mock check the condition and write in separate steps (see
 * adapters/s3/src/test/.../AtomicConditionalWrites.java). Unconditional requests pass unserialized.
 */
final class ConditionalWriteProxy implements AutoCloseable {

  private static final Set<String> NOT_FORWARDED =
      Set.of(
          "connection",
          "content-length",
          "expect",
          "host",
          "upgrade",
          "transfer-encoding",
          "keep-alive",
          "te",
          "trailer",
          "proxy-connection",
          "date");

  private final URI upstream;
  private final HttpServer server;
  private final ExecutorService executor;
  private final HttpClient client;
  private final ConcurrentMap<String, Object> keys = new ConcurrentHashMap<>();
  private final AtomicLong conditional = new AtomicLong();

  private ConditionalWriteProxy(URI upstream, HttpServer server, ExecutorService executor) {
    this.upstream = upstream;
    this.server = server;
    this.executor = executor;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(3))
            .executor(executor)
            .build();
  }

  /** Starts a proxy on a free loopback port that forwards to {@code upstream}. */
  static ConditionalWriteProxy start(URI upstream) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
      ExecutorService executor = Executors.newCachedThreadPool();
      server.setExecutor(executor);
      ConditionalWriteProxy proxy = new ConditionalWriteProxy(upstream, server, executor);
      server.createContext("/", proxy::handle);
      server.start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the conditional-write proxy", e);
    }
  }

  /** {@return the proxy's endpoint, e.g. {@code http://127.0.0.1:40123}} */
  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** {@return how many conditional writes the proxy serialized} */
  long conditionalWrites() {
    return conditional.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      var headers = exchange.getRequestHeaders();
      boolean isConditional =
          (method.equals("PUT") || method.equals("POST"))
              && (headers.containsKey("If-Match") || headers.containsKey("If-None-Match"));
      if (!isConditional) {
        forward(exchange);
        return;
      }
      conditional.incrementAndGet();
      String key = exchange.getRequestURI().getRawPath();
      synchronized (keys.computeIfAbsent(key, k -> new Object())) {
        forward(exchange);
      }
    }
  }

  private void forward(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    URI target =
        upstream.resolve(
            exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null
                    ? ""
                    : "?" + exchange.getRequestURI().getRawQuery()));
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    HttpRequest.BodyPublisher body;
    InputStream in = exchange.getRequestBody();
    if (length != null) {
      long n = Long.parseLong(length.trim());
      body =
          n == 0
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.fromPublisher(
                  HttpRequest.BodyPublishers.ofInputStream(() -> in), n);
    } else if (exchange.getRequestHeaders().containsKey("Transfer-Encoding")) {
      body = HttpRequest.BodyPublishers.ofInputStream(() -> in);
    } else {
      body = HttpRequest.BodyPublishers.noBody();
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target).method(method, body).timeout(Duration.ofSeconds(60));
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!NOT_FORWARDED.contains(name.toLowerCase())) {
                values.forEach(value -> request.header(name, value));
              }
            });
    HttpResponse<InputStream> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while forwarding " + method + " " + target, e);
    } catch (IOException e) {
      // The upstream did not answer: the client sees the connection close without an answer.
      return;
    }
    response
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase();
              if (!lower.startsWith(":") && !NOT_FORWARDED.contains(lower)) {
                exchange.getResponseHeaders().put(name, List.copyOf(values));
              }
            });
    int status = response.statusCode();
    long contentLength = response.headers().firstValueAsLong("Content-Length").orElse(-2);
    try (InputStream from = response.body()) {
      if (method.equals("HEAD") || status == 204 || status == 304) {
        if (contentLength >= 0 && method.equals("HEAD")) {
          exchange.getResponseHeaders().set("Content-Length", Long.toString(contentLength));
        }
        exchange.sendResponseHeaders(status, -1);
        return;
      }
      // sendResponseHeaders: 0 = chunked, -1 = no body, n = fixed length.
      exchange.sendResponseHeaders(status, contentLength == 0 ? -1 : Math.max(contentLength, 0));
      if (contentLength != 0) {
        try (OutputStream to = exchange.getResponseBody()) {
          from.transferTo(to);
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
