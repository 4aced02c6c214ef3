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

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Keeps at most {@code max} bytes of a body and stops reading past them: it requests one chunk at a
 * time and cancels its subscription once the bound is exceeded, so a huge or endless body never
 * takes more than {@code max} bytes (plus the client's one chunk in flight). {@link #exchange} runs
 * one exchange with it that ends within a time limit, body included.
 */
final class BoundedBody implements HttpResponse.BodyHandler<Void> {
  private final int max;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final Object lock = new Object();
  private byte[] kept = new byte[0];
  private int size;
  private boolean truncated;
  private boolean complete;
  private boolean cancelled;
  private Flow.Subscription subscription;
  private HttpResponse.ResponseInfo info;

  BoundedBody(int max) {
    this.max = max;
  }

  /**
   * One exchange of {@code http} that ends within {@code wait}, body included. {@code
   * HttpRequest.timeout} alone ends only the wait for the headers; a server that then stalls the
   * body would hold the caller forever. Past the limit the exchange is cancelled: the body
   * subscription (stops reading) and the future with {@code cancel(true)}, which on the JDK's
   * client (since 16) attempts to abort the exchange; on HTTP/1.1 that closes the connection.
   *
   * @param maxBytes how much of the body is kept
   * @param limit the limit that {@code wait} comes from, as messages name it
   * @return the answer, with {@link ApiCalls.Response#bodyError} if its headers arrived but its
   *     body did not arrive completely
   * @throws HttpTimeoutException if no headers arrived within the limit
   * @throws IOException if the exchange failed before the headers arrived
   */
  static ApiCalls.Response exchange(
      HttpClient client, HttpRequest http, int maxBytes, Duration wait, String limit)
      throws IOException, InterruptedException {
    BoundedBody body = new BoundedBody(maxBytes);
    CompletableFuture<HttpResponse<Void>> future = client.sendAsync(http, body);
    try {
      future.get(wait.toNanos(), TimeUnit.NANOSECONDS);
      return body.response(Optional.empty()).orElseThrow();
    } catch (TimeoutException e) {
      body.cancel();
      future.cancel(true);
      String why = "its body did not arrive within " + limit;
      return body.response(Optional.of(why))
          .orElseThrow(() -> new HttpTimeoutException("no answer within " + limit));
    } catch (InterruptedException e) {
      body.cancel();
      future.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      Optional<ApiCalls.Response> partial =
          body.response(Optional.of("its body was cut off (" + ApiCalls.describe(cause) + ")"));
      if (partial.isPresent()) {
        return partial.get();
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(ApiCalls.describe(cause), cause);
    }
  }

  @Override
  public HttpResponse.BodySubscriber<Void> apply(HttpResponse.ResponseInfo responseInfo) {
    synchronized (lock) {
      this.info = responseInfo;
    }
    return new Subscriber();
  }

  /** Stops reading (idempotent). */
  void cancel() {
    Flow.Subscription toCancel;
    synchronized (lock) {
      cancelled = true;
      toCancel = subscription;
    }
    if (toCancel != null) {
      toCancel.cancel();
    }
  }

  /** How many bytes are kept. */
  int keptBytes() {
    synchronized (lock) {
      return size;
    }
  }

  /** The answer so far, if its headers arrived; {@code bodyError} unless it is complete. */
  Optional<ApiCalls.Response> response(Optional<String> bodyError) {
    synchronized (lock) {
      if (info == null) {
        return Optional.empty();
      }
      return Optional.of(
          new ApiCalls.Response(
              info.statusCode(),
              info.headers(),
              Arrays.copyOf(kept, size),
              truncated,
              complete ? Optional.empty() : bodyError));
    }
  }

  private final class Subscriber implements HttpResponse.BodySubscriber<Void> {
    @Override
    public CompletionStage<Void> getBody() {
      return done;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      boolean cancelNow;
      synchronized (lock) {
        cancelNow = cancelled || subscription != null;
        if (!cancelNow) {
          subscription = s;
        }
      }
      if (cancelNow) {
        s.cancel();
      } else {
        s.request(1);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      boolean stop;
      synchronized (lock) {
        for (ByteBuffer buffer : buffers) {
          int take = Math.min(buffer.remaining(), max - size);
          if (take > 0) {
            if (kept.length < size + take) {
              kept = Arrays.copyOf(kept, Math.min(max, Math.max(size + take, size * 2)));
            }
            buffer.get(kept, size, take);
            size += take;
          }
          if (buffer.hasRemaining()) {
            truncated = true;
          }
        }
        stop = truncated || cancelled;
        // Cut at the bound, the body is as complete as it will be; cancelled, it is not.
        complete = truncated && !cancelled;
      }
      if (stop) {
        subscription.cancel();
        if (complete) {
          done.complete(null);
        } else {
          done.completeExceptionally(new java.util.concurrent.CancellationException());
        }
      } else {
        subscription.request(1);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      done.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      synchronized (lock) {
        complete = true;
      }
      done.complete(null);
    }
  }
}
