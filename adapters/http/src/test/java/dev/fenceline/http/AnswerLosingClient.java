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

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that can lose one answer on purpose, with no timing involved: the armed
 * request is really sent (the API processes it, in the background), but its caller sees the
 * exchange fail with an {@link IOException} at the moment the test calls {@link #loseTheAnswer()},
 * usually from a pause point inside the API. The real answer, if any, is discarded. Every other
 * request goes through unchanged.
 */
final class AnswerLosingClient extends HttpClient {

  private final HttpClient delegate;
  private final AtomicReference<CompletableFuture<?>> armed = new AtomicReference<>();
  private final AtomicReference<CompletableFuture<?>> pending = new AtomicReference<>();

  AnswerLosingClient(HttpClient delegate) {
    this.delegate = requireNonNull(delegate, "delegate");
  }

  /** The next request that is sent will have its answer lost (see {@link #loseTheAnswer()}). */
  void loseTheNextAnswer() {
    armed.set(new CompletableFuture<>());
  }

  /** Fails the armed request's exchange for its caller, as a connection reset would. */
  void loseTheAnswer() {
    CompletableFuture<?> waiting = pending.getAndSet(null);
    if (waiting == null) {
      throw new AssertionError("no request whose answer is to be lost was sent");
    }
    waiting.completeExceptionally(
        new IOException("connection reset (simulated: the answer was lost)"));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    @SuppressWarnings("unchecked")
    CompletableFuture<HttpResponse<T>> lost =
        (CompletableFuture<HttpResponse<T>>) armed.getAndSet(null);
    if (lost == null) {
      return delegate.sendAsync(request, handler);
    }
    pending.set(lost);
    delegate.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    return lost;
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request,
      HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
    return sendAsync(request, handler);
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    throw new UnsupportedOperationException("the destinations send asynchronously");
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return delegate.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return delegate.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return delegate.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return delegate.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return delegate.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return delegate.authenticator();
  }

  @Override
  public Version version() {
    return delegate.version();
  }

  @Override
  public Optional<Executor> executor() {
    return delegate.executor();
  }
}
