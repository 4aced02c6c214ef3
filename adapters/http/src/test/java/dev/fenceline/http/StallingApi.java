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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw HTTP/1.1 server on a {@link ServerSocket} whose answers can stop after their headers: what
 * WireMock cannot do for as long as a test needs. Every connection is answered once and closed.
 * Answers are scripted per method, in order, the last one repeating; the journal records every
 * request. A stalled or endless answer waits for the client to hang up, and counts it.
 */
final class StallingApi implements AutoCloseable {

  /** What the server answers. */
  sealed interface Answer permits Complete, StallAfter, Endless {}

  /** A whole answer. */
  record Complete(int status, Map<String, String> headers, String body) implements Answer {}

  /**
   * The status line, headers and a {@code Content-Length} of {@code declaredLength}, then only
   * {@code partialBody}, then nothing until the client hangs up.
   */
  record StallAfter(int status, String partialBody, int declaredLength) implements Answer {}

  /** The status line and headers with a 1 GiB body, written as fast as the client reads. */
  record Endless(int status) implements Answer {}

  /** One request as it arrived. */
  record Received(String method, String path, Map<String, String> headers) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final ServerSocket socket;
  private final ExecutorService connections = Executors.newCachedThreadPool();
  private final Map<String, List<Answer>> script = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();
  private final List<Received> journal = new CopyOnWriteArrayList<>();
  private final Semaphore hangups = new Semaphore(0);
  private final AtomicLong endlessBytesWritten = new AtomicLong();
  private final java.util.Set<Socket> open = ConcurrentHashMap.newKeySet();

  StallingApi() {
    try {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    connections.execute(this::accept);
  }

  URI baseUri() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort());
  }

  /** Answers requests with {@code method} with {@code answers} in order; the last one repeats. */
  void answer(String method, Answer... answers) {
    script.put(method, List.of(answers));
  }

  List<Received> journal() {
    return Collections.unmodifiableList(new ArrayList<>(journal));
  }

  List<String> methods() {
    return journal().stream().map(Received::method).toList();
  }

  /** Waits until clients hung up on {@code count} stalled or endless answers in all. */
  boolean awaitHangups(int count, Duration timeout) throws InterruptedException {
    return hangups.tryAcquire(count, timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The bytes of endless bodies the server could write before its clients hung up. */
  long endlessBytesWritten() {
    return endlessBytesWritten.get();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    open.forEach(
        connection -> {
          try {
            connection.close();
          } catch (IOException e) {
            // closing anyway
          }
        });
    connections.shutdownNow();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        open.add(connection);
        connections.execute(() -> serve(connection));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket connection) {
    try (connection;
        InputStream in = connection.getInputStream();
        OutputStream out = connection.getOutputStream()) {
      Received request = read(in);
      if (request == null) {
        return;
      }
      journal.add(request);
      List<Answer> answers = script.getOrDefault(request.method(), List.of());
      int index =
          served.computeIfAbsent(request.method(), m -> new AtomicInteger()).getAndIncrement();
      Answer answer =
          answers.isEmpty()
              ? new Complete(404, Map.of(), "{}")
              : answers.get(Math.min(index, answers.size() - 1));
      if (answer instanceof Complete complete) {
        byte[] body = complete.body().getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new LinkedHashMap<>(complete.headers());
        headers.put("Content-Type", "application/json");
        out.write(head(complete.status(), body.length, headers));
        out.write(body);
        out.flush();
      } else if (answer instanceof StallAfter stall) {
        out.write(
            head(
                stall.status(),
                stall.declaredLength(),
                Map.of("Content-Type", "application/json")));
        out.write(stall.partialBody().getBytes(StandardCharsets.UTF_8));
        out.flush();
        // Stalls: nothing more is sent; read() returns when the client closes the connection.
        while (in.read() >= 0) {
          // a client sends nothing more on this connection
        }
        hangups.release();
      } else if (answer instanceof Endless endless) {
        out.write(head(endless.status(), 1L << 30, Map.of("Content-Type", "text/plain")));
        byte[] chunk = new byte[16 * 1024];
        try {
          while (true) {
            out.write(chunk);
            endlessBytesWritten.addAndGet(chunk.length);
          }
        } catch (IOException hungUp) {
          hangups.release();
        }
      }
    } catch (IOException e) {
      hangups.release(); // the client hung up during a stall
    } finally {
      open.remove(connection);
    }
  }

  private static byte[] head(int status, long contentLength, Map<String, String> headers) {
    StringBuilder head = new StringBuilder("HTTP/1.1 " + status + " Status\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    head.append("Content-Length: ").append(contentLength).append("\r\n");
    head.append("Connection: close\r\n\r\n");
    return head.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static Received read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String[] lines = head.toString(StandardCharsets.US_ASCII).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    in.readNBytes(length);
    return new Received(requestLine[0], requestLine[1], headers);
  }
}
