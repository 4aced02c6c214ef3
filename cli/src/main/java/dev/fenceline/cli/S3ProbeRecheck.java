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
package dev.fenceline.cli;

/**
 * {@code doctor --recheck}: asks the {@code s3} adapter to probe conditional writes again instead
 * of using a cached pass. The adapter is found at run time (the command does not compile against
 * it), so the request is its documented system property, {@code
 * dev.fenceline.s3.S3AdapterFactory#RECHECK_PROPERTY}; set before any store opens.
 */
final class S3ProbeRecheck {

  /** The s3 adapter's {@code RECHECK_PROPERTY} (a test checks that the two agree). */
  static final String PROPERTY = "fenceline.s3.probe-recheck";

  private S3ProbeRecheck() {}

  /** Makes the S3 stores opened from now on in this process probe afresh, if {@code recheck}. */
  static void requestIf(boolean recheck) {
    if (recheck) {
      System.setProperty(PROPERTY, "true");
    }
  }
}
