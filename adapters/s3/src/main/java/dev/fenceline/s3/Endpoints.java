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

import java.net.URI;

/** Shows endpoints in messages without user information, query or fragment. */
final class Endpoints {

  private Endpoints() {}

  static String redact(URI endpoint) {
    StringBuilder shown = new StringBuilder();
    if (endpoint.getScheme() != null) {
      shown.append(endpoint.getScheme()).append("://");
    }
    if (endpoint.getUserInfo() != null) {
      shown.append("***@");
    }
    if (endpoint.getHost() != null) {
      shown.append(endpoint.getHost());
    }
    if (endpoint.getPort() >= 0) {
      shown.append(':').append(endpoint.getPort());
    }
    if (endpoint.getRawPath() != null) {
      shown.append(endpoint.getRawPath());
    }
    return shown.toString();
  }
}
