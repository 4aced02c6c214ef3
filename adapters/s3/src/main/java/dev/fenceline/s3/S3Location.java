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

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.StoreException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Where a component of an {@link S3Store} keeps its objects: a client, a bucket and an optional key
 * prefix, and how the place is named in messages (never with credentials).
 *
 * @param client the SDK client
 * @param bucket the bucket
 * @param prefix the key prefix without a trailing slash, or empty for the bucket's root
 * @param endpoint how the endpoint is shown in messages, e.g. {@code http://127.0.0.1:9090}
 */
record S3Location(S3Client client, String bucket, String prefix, String endpoint) {

  /** HTTP status of a failed precondition ({@code If-Match}, {@code If-None-Match}). */
  static final int PRECONDITION_FAILED = 412;

  /** HTTP status S3 answers when a conditional write raced another one on the same key. */
  static final int CONFLICT = 409;

  S3Location {
    requireNonNull(client, "client is null");
    requireNonNull(bucket, "bucket is null");
    requireNonNull(prefix, "prefix is null");
    requireNonNull(endpoint, "endpoint is null");
  }

  /** The object key of {@code key} under the prefix. */
  String objectKey(BlobKey key) {
    return prefix.isEmpty() ? key.value() : prefix + "/" + key.value();
  }

  /** The object key of {@code relative} (already a valid key path) under the prefix. */
  String objectKey(String relative) {
    return prefix.isEmpty() ? relative : prefix + "/" + relative;
  }

  /** {@code s3://bucket/key} for messages. */
  String describe(String objectKey) {
    return "s3://" + bucket + "/" + objectKey;
  }

  /** {@code s3://bucket/prefix at endpoint} for messages. */
  String describe() {
    return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix) + " at " + endpoint;
  }

  /** HTTP status S3Mock answers to a CompleteMultipartUpload whose If-None-Match failed. */
  static final int NOT_MODIFIED = 304;

  /**
   * True if {@code e} is an answer saying a condition of a write did not hold, so nothing was
   * written: 412, 409 (a concurrent conditional write won), or 304 (S3Mock's answer when {@code
   * If-None-Match} fails on a completed multipart upload).
   */
  static boolean preconditionFailed(SdkException e) {
    return e instanceof S3Exception s3
        && (s3.statusCode() == PRECONDITION_FAILED
            || s3.statusCode() == CONFLICT
            || s3.statusCode() == NOT_MODIFIED);
  }

  /** True if {@code e} is a 404 answer (no such key, or no such bucket). */
  static boolean notFound(SdkException e) {
    return e instanceof S3Exception s3 && s3.statusCode() == 404;
  }

  /**
   * A {@link StoreException} for a failed request: {@code Cannot <action>: <cause> (<hint>)}. For a
   * write, the outcome is unknown unless the server answered 4xx: a lost answer may hide an applied
   * request, and S3 does not promise that a 5xx ({@code InternalError}, {@code SlowDown}) left
   * nothing behind, also when the SDK made a single attempt (its retry quota can be spent). Missing
   * credentials are a known failure for writes too: the SDK finds none before it sends anything.
   */
  StoreException failure(String action, SdkException e, boolean writes) {
    String reason;
    boolean unknown;
    if (MarkedCredentials.notFound(e)) {
      // The SDK looks for credentials before it sends anything: nothing can have changed.
      return new StoreException(
          "Cannot "
              + action
              + ": no AWS credentials found (nothing was sent; give them with AWS_ACCESS_KEY_ID and"
              + " AWS_SECRET_ACCESS_KEY, with AWS_PROFILE or ~/.aws/credentials, or with an instance"
              + " or container role)",
          e,
          false);
    }
    if (e instanceof S3Exception s3) {
      String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
      reason =
          "the endpoint answered HTTP "
              + s3.statusCode()
              + (code == null || code.isBlank() ? "" : " " + code);
      unknown = writes && s3.statusCode() >= 500;
    } else {
      reason =
          e instanceof SdkClientException
              ? "no answer from " + endpoint + ": " + rootMessage(e)
              : rootMessage(e);
      unknown = writes;
    }
    String hint =
        unknown
            ? " (the request may have been applied: look the operation up or retry with the same"
                + " operation ID)"
            : hintFor(e);
    return new StoreException("Cannot " + action + ": " + reason + hint, e, unknown);
  }

  private String hintFor(SdkException e) {
    if (e instanceof S3Exception s3) {
      return switch (s3.statusCode()) {
        case 403 ->
            " (check the credentials of the SDK's provider chain and the bucket policy for "
                + bucket
                + ")";
        case 404 -> " (check that bucket " + bucket + " exists at " + endpoint + ")";
        case 301, 400 -> " (check the region, the endpoint and path-style access)";
        default -> "";
      };
    }
    return " (check that " + endpoint + " is reachable)";
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return message == null ? root.getClass().getSimpleName() : message;
  }
}
