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

import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * A store's credentials provider that marks a failure to find credentials, so that {@link
 * S3Location#failure} tells it apart from a request without an answer by type, not by the SDK's
 * message: the SDK resolves credentials before it sends anything, so such a failure changed
 * nothing, and the user needs to know how to give credentials, not whether the endpoint answers.
 */
final class MarkedCredentials implements AwsCredentialsProvider {

  /** The cause a credentials failure carries: no request was sent. */
  static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFound(SdkClientException failure) {
      // The provider chain's own message (1.5 KB, every provider tried) stays in the cause only.
      super("no AWS credentials found", failure);
    }
  }

  private final AwsCredentialsProvider provider;

  MarkedCredentials(AwsCredentialsProvider provider) {
    this.provider = requireNonNull(provider, "provider is null");
  }

  @Override
  public AwsCredentials resolveCredentials() {
    try {
      return provider.resolveCredentials();
    } catch (SdkClientException e) {
      throw SdkClientException.builder()
          .message("no AWS credentials found")
          .cause(new NotFound(e))
          .build();
    }
  }

  /** True if {@code failure} (or a cause) is a credentials failure marked by this provider. */
  static boolean notFound(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof NotFound) {
        return true;
      }
      if (cause.getCause() == cause) {
        return false;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return provider.toString();
  }
}
