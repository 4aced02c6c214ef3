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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;

/**
 * An HTTP client for tests that records every request by its S3 operation name (retries included)
 * and can fail chosen requests without sending them, as a dropped connection would.
 */
final class RecordingHttpClient implements SdkHttpClient {

  private final SdkHttpClient delegate = Apache5HttpClient.create();
  private final List<String> operations = new ArrayList<>();
  private volatile Predicate<SdkHttpRequest> failing = request -> false;

  /** The S3 operations sent so far, in order. */
  synchronized List<String> operations() {
    return List.copyOf(operations);
  }

  /** Forgets the operations recorded so far. */
  synchronized void clear() {
    operations.clear();
  }

  /** Fails every request matching {@code which} with an I/O error before it is sent. */
  void failWhen(Predicate<SdkHttpRequest> which) {
    this.failing = which;
  }

  /** Matches the upload of part {@code number} of a multipart upload. */
  static Predicate<SdkHttpRequest> uploadOfPart(int number) {
    return request ->
        operation(request).equals("UploadPart")
            && List.of(Integer.toString(number))
                .equals(request.rawQueryParameters().get("partNumber"));
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    SdkHttpRequest http = request.httpRequest();
    synchronized (this) {
      operations.add(operation(http));
    }
    if (failing.test(http)) {
      return new ExecutableHttpRequest() {
        @Override
        public HttpExecuteResponse call() throws IOException {
          throw new IOException("connection reset (failed by the test)");
        }

        @Override
        public void abort() {}
      };
    }
    return delegate.prepareRequest(request);
  }

  /** The S3 operation of a request, told by its method and query parameters. */
  static String operation(SdkHttpRequest request) {
    Map<String, List<String>> query = request.rawQueryParameters();
    return switch (request.method()) {
      case PUT -> query.containsKey("partNumber") ? "UploadPart" : "PutObject";
      case POST ->
          query.containsKey("uploads")
              ? "CreateMultipartUpload"
              : query.containsKey("uploadId") ? "CompleteMultipartUpload" : "POST";
      case DELETE -> query.containsKey("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
      case HEAD -> "HeadObject";
      case GET ->
          query.containsKey("list-type")
              ? "ListObjectsV2"
              : query.containsKey("uploads") ? "ListMultipartUploads" : "GetObject";
      default -> request.method().name();
    };
  }

  @Override
  public void close() {
    delegate.close();
  }
}
