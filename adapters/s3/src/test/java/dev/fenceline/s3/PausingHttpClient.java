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
