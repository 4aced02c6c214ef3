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
package dev.fenceline.benchmarks;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The HTTP client of the S3 rows: counts every request it sends (SDK retries included, as the S3
 * adapter's {@code RecordingHttpClient} does) and sends the conditional writes ({@code PUT} or
 * {@code POST} with {@code If-Match} / {@code If-None-Match}) to one key one at a time, so that
 * they are atomic, as on AWS S3.
 *
 * <p>Why: S3Proxy 4.1.0 and S3Mock 4.8 honour the conditions one request at a time but check and
 * write in separate steps (TEST-SERVERS.md: two racing {@code If-Match} PUTs both won 13 of 40
 * times on S3Proxy, 4 of 40 on S3Mock), so the S3 pointer store's probe refuses them. The S3
 * adapter's tests ({@code AtomicConditionalWrites}) and the chaos runs ({@code
 * ConditionalWriteProxy}) serialize conditional writes per key the same way; here, in the one JVM
 * that sends every request, a lock per key in the client does it without an extra network hop.
 * Unconditional requests (the raw {@code PutObject} peers, reads) pass unserialized. Each worker
 * thread of the benchmark uses its own keys, so the lock is only ever contended by the probe's
 * deliberate races.
 */
final class AtomicConditionalWrites implements SdkHttpClient {

  private final SdkHttpClient delegate;
  private final ConcurrentMap<String, Object> keys = new ConcurrentHashMap<>();
  private final LongAdder requests = new LongAdder();
  private final LongAdder conditional = new LongAdder();

  AtomicConditionalWrites(SdkHttpClient delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  /** Requests sent so far (every attempt). */
  long requests() {
    return requests.sum();
  }

  /** Conditional writes sent so far, each alone on its key. */
  long conditionalWrites() {
    return conditional.sum();
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    requests.increment();
    ExecutableHttpRequest real = delegate.prepareRequest(request);
    SdkHttpRequest http = request.httpRequest();
    String method = http.method().name();
    boolean isConditional =
        (method.equals("PUT") || method.equals("POST"))
            && (http.firstMatchingHeader("If-Match").isPresent()
                || http.firstMatchingHeader("If-None-Match").isPresent());
    if (!isConditional) {
      return real;
    }
    conditional.increment();
    String key = http.host() + ":" + http.port() + http.encodedPath();
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        synchronized (keys.computeIfAbsent(key, k -> new Object())) {
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
  public String clientName() {
    return delegate.clientName();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
