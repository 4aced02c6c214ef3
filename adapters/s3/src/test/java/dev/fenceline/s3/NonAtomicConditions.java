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

import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * An HTTP client that makes an endpoint look like one that checks conditions and writes in separate
 * steps, deterministically: every PUT of the probe's concurrency check ({@link
 * ConditionalWriteProbe#RACE_KEY_MARK} keys) that carries {@code header} loses it, so each is
 * written as if its condition had held, as when all racing PUTs pass the check before any of them
 * writes. (Keeping the condition on one of them would make the count depend on their order.) Put it
 * in front of an {@link AtomicConditionalWrites} so that the other conditions are atomic.
 */
final class NonAtomicConditions implements SdkHttpClient {

  private final SdkHttpClient delegate;
  private final String header;

  /**
   * @param header {@code If-Match} or {@code If-None-Match}
   */
  NonAtomicConditions(SdkHttpClient delegate, String header) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    this.header = requireNonNull(header, "header is null");
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    SdkHttpRequest http = request.httpRequest();
    if (http.method().name().equals("PUT")
        && http.encodedPath().contains(ConditionalWriteProbe.RACE_KEY_MARK)
        && http.firstMatchingHeader(header).isPresent()) {
      SdkHttpRequest stripped = http.toBuilder().removeHeader(header).build();
      return delegate.prepareRequest(
          HttpExecuteRequest.builder()
              .request(stripped)
              .contentStreamProvider(request.contentStreamProvider().orElse(null))
              .metricCollector(request.metricCollector().orElse(null))
              .build());
    }
    return delegate.prepareRequest(request);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
