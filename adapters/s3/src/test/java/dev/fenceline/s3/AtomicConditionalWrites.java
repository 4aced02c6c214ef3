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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * An HTTP client that sends the conditional PUTs ({@code If-Match}, {@code If-None-Match}) of every
 * client of this JVM to one key one at a time, standing in for the atomic conditional writes of AWS
 * S3 on the test servers.
 *
 * <p>Why: S3Mock 4.8 and S3Proxy 4.1.0 honour the conditions one request at a time, but check and
 * write in separate steps: measured with two threads racing 40 times on one key, S3Mock let both
 * create-only PUTs succeed 19 times and both {@code If-Match} PUTs 4 times, S3Proxy both {@code
 * If-Match} PUTs 13 times. On such an endpoint no compare-and-swap is safe; the racing tests would
 * test the server, not the store. Unconditional PUTs pass unserialized, so a store that drops its
 * condition still loses swaps in the racing tests.
 */
final class AtomicConditionalWrites implements SdkHttpClient {

  private static final ConcurrentMap<String, Object> KEYS = new ConcurrentHashMap<>();

  private final SdkHttpClient delegate;

  AtomicConditionalWrites(SdkHttpClient delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    ExecutableHttpRequest real = delegate.prepareRequest(request);
    SdkHttpRequest http = request.httpRequest();
    boolean conditional =
        http.method().name().equals("PUT")
            && (http.firstMatchingHeader("If-Match").isPresent()
                || http.firstMatchingHeader("If-None-Match").isPresent());
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        if (!conditional) {
          return real.call();
        }
        String key = http.host() + ":" + http.port() + http.encodedPath();
        synchronized (KEYS.computeIfAbsent(key, k -> new Object())) {
          return real.call();
        }
      }

      @Override
      public void abort() {
        real.abort();
      }
    };
  }

  @Override
  public void close() {
    delegate.close();
  }
}
