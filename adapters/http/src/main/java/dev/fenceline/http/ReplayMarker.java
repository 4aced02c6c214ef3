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

import java.util.Locale;

/**
 * How an API that replays results says that an answer is a replay: the stored result of an earlier
 * request with the same idempotency key, not a new application. A {@link NativeHttpDestination}
 * answers such a response with {@link dev.fenceline.spi.AlreadyApplied}, every other success with
 * {@link dev.fenceline.spi.Applied}. Without a marker the two cannot be told apart, so a
 * destination configured without one does not report {@link
 * dev.fenceline.spi.Capability#OPERATION_RECORD}.
 */
public final class ReplayMarker {

  private final String headerName;
  private final String headerValue;
  private final int status;

  private ReplayMarker(String headerName, String headerValue, int status) {
    this.headerName = headerName;
    this.headerValue = headerValue;
    this.status = status;
  }

  /**
   * A replay is a success answer carrying header {@code name} with {@code value} (compared ignoring
   * case), e.g. Stripe's {@code Idempotent-Replayed: true}.
   *
   * @throws IllegalArgumentException if the name is not a header name or the value is blank
   */
  public static ReplayMarker header(String name, String value) {
    requireNonNull(name, "name is null");
    requireNonNull(value, "value is null");
    if (!HeaderNames.HEADER_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Cannot use replay header "
              + ApiRequest.quote(name)
              + ": it is not a valid HTTP header name (e.g. Idempotent-Replayed)");
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(
          "Cannot use replay header " + name + " with a blank value (e.g. true)");
    }
    return new ReplayMarker(name, value.strip(), 0);
  }

  /**
   * A replay is a success answer with {@code status}, e.g. 200 where a first application answers
   * 201.
   *
   * @throws IllegalArgumentException if the status is not 200 to 299
   */
  public static ReplayMarker status(int status) {
    if (status < 200 || status > 299) {
      throw new IllegalArgumentException(
          "Cannot use status "
              + status
              + " as the replay marker: a replay is a success, give a 2xx status (e.g. 200)");
    }
    return new ReplayMarker(null, null, status);
  }

  /** The status of a replay, or 0 when the marker is a header. */
  int status() {
    return status;
  }

  boolean matches(ApiCalls.Response response) {
    if (headerName == null) {
      return response.status() == status;
    }
    return response
        .header(headerName)
        .map(v -> v.strip().toLowerCase(Locale.ROOT).equals(headerValue.toLowerCase(Locale.ROOT)))
        .orElse(false);
  }

  @Override
  public String toString() {
    return headerName == null ? "status " + status : headerName + ": " + headerValue;
  }
}
