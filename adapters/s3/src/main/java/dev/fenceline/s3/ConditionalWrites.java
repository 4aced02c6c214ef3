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

import dev.fenceline.spi.ConfigurationException;
import java.util.List;
import java.util.Optional;

/**
 * What the probe found out about an endpoint's conditional writes, on a probe key under the store's
 * prefix. An {@link S3PointerStore} opens only on an endpoint that passed every check; S3 (since
 * August 2024) does; S3Proxy 2.x and some S3-compatible stores silently ignore the conditions, and
 * a pointer store on them would overwrite newer pointers.
 *
 * <p>The last check sends bursts of concurrent conditional PUTs on one key and fails if more than
 * one of a burst is accepted: S3Mock 4.8 and S3Proxy 4.1.0 check the condition and write in
 * separate steps and fail it at times, and a pointer store there could lose an acknowledged swap.
 * That check can prove that an endpoint is non-atomic, never that it is atomic: {@link #honoured()}
 * means every check passed and no race was seen, not that none can happen.
 *
 * @param location where the probe ran, for messages: {@code s3://bucket/prefix at endpoint}
 * @param passed the checks that passed, in the order they ran
 * @param failure the first check that failed and what the endpoint answered, or empty if all passed
 */
public record ConditionalWrites(String location, List<String> passed, Optional<String> failure) {

  /** Validates the result. */
  public ConditionalWrites {
    requireNonNull(location, "location is null");
    passed = List.copyOf(passed);
    requireNonNull(failure, "failure is null");
  }

  /** True if the endpoint passed every check. */
  public boolean honoured() {
    return failure.isEmpty();
  }

  /**
   * Throws unless the endpoint passed every check.
   *
   * @param action what needs conditional writes, e.g. {@code open the S3 pointer store "reports"}
   * @param fix what to do instead on this endpoint
   * @throws ConfigurationException naming the endpoint, the failed check and the fix
   */
  public void require(String action, String fix) {
    failure.ifPresent(
        failed -> {
          throw new ConfigurationException(
              "Cannot "
                  + action
                  + " on "
                  + location
                  + ": the endpoint does not honour conditional writes; "
                  + failed
                  + " ("
                  + fix
                  + ")");
        });
  }
}
