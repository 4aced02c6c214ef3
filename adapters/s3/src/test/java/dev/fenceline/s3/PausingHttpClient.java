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

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * An HTTP client for tests that holds the first request matching a condition before sending it,
 * until the test releases it: a pause point between two requests of one call.
 */
final class PausingHttpClient implements SdkHttpClient {

  private final SdkHttpClient delegate;
  private final Predicate<SdkHttpRequest> matches;
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile boolean paused;

  PausingHttpClient(SdkHttpClient delegate, Predicate<SdkHttpRequest> matches) {
    this.delegate = delegate;
    this.matches = matches;
  }

  /** Waits until the matching request is held. */
  void awaitPaused() throws InterruptedException {
    if (!reached.await(60, TimeUnit.SECONDS)) {
      throw new AssertionError("the request to pause at was never sent");
    }
  }

  /** Lets the held request go. */
  void release() {
    release.countDown();
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    ExecutableHttpRequest prepared = delegate.prepareRequest(request);
    boolean hold;
    synchronized (this) {
      hold = !paused && matches.test(request.httpRequest());
      paused |= hold;
    }
    if (!hold) {
      return prepared;
    }
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        reached.countDown();
        try {
          if (!release.await(60, TimeUnit.SECONDS)) {
            throw new IOException("the test never released the paused request");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
        return prepared.call();
      }

      @Override
      public void abort() {
        prepared.abort();
      }
    };
  }

  @Override
  public void close() {
    delegate.close();
  }
}
