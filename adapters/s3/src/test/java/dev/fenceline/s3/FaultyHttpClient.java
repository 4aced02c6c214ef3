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
package dev.fenceline.s3;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * An HTTP client for the SDK that passes requests to a real one, records every exchange that
 * reached the server, and can lose answers, fail a request before it is sent, or "crash" on cue:
 * the network faults a pointer store must survive, with the real server behind them. Thread-safe;
 * each fault fires once.
 */
final class FaultyHttpClient implements SdkHttpClient {

  /** One request that reached the server, and the status it answered. */
  record Exchange(String method, String path, int status) {

    /** {@code GET control 404}, {@code PUT operation 200}: method, pointer object kind, status. */
    String kind() {
      return method + " " + objectKind() + " " + status;
    }

    private String objectKind() {
      for (String area : List.of("control", "operations", "versions")) {
        if (path.contains("/" + PointerKeys.AREA + "/" + area + "/")) {
          return area.equals("control") ? area : area.substring(0, area.length() - 1);
        }
      }
      return path.endsWith("/store.json") ? "store" : "other";
    }
  }

  private final SdkHttpClient delegate;
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
  private volatile Fault fault;

  FaultyHttpClient(SdkHttpClient delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  /** True for a PUT of a control object. */
  static boolean controlPut(SdkHttpRequest request) {
    return request.method().name().equals("PUT")
        && request.encodedPath().contains("/" + PointerKeys.AREA + "/control/");
  }

  /**
   * The next request that matches {@code which} is sent and answered by the server, then {@code
   * then} runs and the client throws an {@link IOException} instead of returning the answer (the
   * SDK retries it with the same headers).
   */
  void loseAnswerOnce(Predicate<SdkHttpRequest> which, Runnable then) {
    fault = new Fault(which, then, true, 0, false);
  }

  /**
   * The next request that matches {@code which} is never sent (a connection reset before the
   * request left): {@code then} runs and the client throws an {@link IOException}, which the SDK
   * retries with the same headers. So the SDK's second attempt is the first the server sees, and if
   * {@code then} committed another writer's change, a conditional request is refused (412) although
   * nothing of it ever landed.
   */
  void failUnsentOnce(Predicate<SdkHttpRequest> which, Runnable then) {
    fault = new Fault(which, then, false, 0, false, true);
  }

  /** After the next request that matches {@code which} was answered, {@code then} runs. */
  void afterAnswerOnce(Predicate<SdkHttpRequest> which, Runnable then) {
    fault = new Fault(which, then, false, 0, false);
  }

  /**
   * From the {@code k}-th request on (counting from now, SDK retries included) nothing is answered,
   * as if the process had lost the network for good; if {@code sendKth}, the {@code k}-th request
   * still reaches the server.
   */
  void crashAt(int k, boolean sendKth) {
    fault = new Fault(request -> true, () -> {}, true, k, sendKth);
  }

  /** Disarms every fault. */
  void heal() {
    fault = null;
  }

  /** The exchanges that reached the server since the last {@link #clear()}, in order. */
  List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  /** {@link Exchange#kind()} of each exchange since the last {@link #clear()}. */
  List<String> kinds() {
    return exchanges.stream().map(Exchange::kind).toList();
  }

  void clear() {
    exchanges.clear();
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    ExecutableHttpRequest real = delegate.prepareRequest(request);
    SdkHttpRequest http = request.httpRequest();
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        Fault armed = fault;
        if (armed != null && armed.crashAt > 0) {
          int n = armed.seen.incrementAndGet();
          if (n > armed.crashAt || (n == armed.crashAt && !armed.sendKth)) {
            throw new IOException("simulated crash: request " + n + " was not sent");
          }
          if (n == armed.crashAt) {
            drop(send(real, http));
            throw new IOException("simulated crash: the answer of request " + n + " was lost");
          }
          return send(real, http);
        }
        if (armed != null && armed.which.test(http) && armed.fired.compareAndSet(false, true)) {
          if (armed.unsent) {
            armed.then.run();
            throw new IOException("simulated fault: the connection failed before the request left");
          }
          HttpExecuteResponse response = send(real, http);
          if (armed.loseAnswer) {
            drop(response);
            armed.then.run();
            throw new IOException("simulated fault: the answer was lost after the server applied");
          }
          armed.then.run();
          return response;
        }
        return send(real, http);
      }

      @Override
      public void abort() {
        real.abort();
      }
    };
  }

  private HttpExecuteResponse send(ExecutableHttpRequest real, SdkHttpRequest http)
      throws IOException {
    HttpExecuteResponse response = real.call();
    exchanges.add(
        new Exchange(
            http.method().name(), http.encodedPath(), response.httpResponse().statusCode()));
    return response;
  }

  private static void drop(HttpExecuteResponse response) throws IOException {
    if (response.responseBody().isPresent()) {
      try (InputStream body = response.responseBody().get()) {
        body.readAllBytes();
      }
    }
  }

  @Override
  public void close() {
    delegate.close();
  }

  private record Fault(
      Predicate<SdkHttpRequest> which,
      Runnable then,
      boolean loseAnswer,
      int crashAt,
      boolean sendKth,
      boolean unsent,
      AtomicBoolean fired,
      AtomicInteger seen) {
    Fault(Predicate<SdkHttpRequest> which, Runnable then, boolean loseAnswer, int k, boolean send) {
      this(which, then, loseAnswer, k, send, false);
    }

    Fault(
        Predicate<SdkHttpRequest> which,
        Runnable then,
        boolean loseAnswer,
        int k,
        boolean send,
        boolean unsent) {
      this(which, then, loseAnswer, k, send, unsent, new AtomicBoolean(), new AtomicInteger());
    }
  }
}
