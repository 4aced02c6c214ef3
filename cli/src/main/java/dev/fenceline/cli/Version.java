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

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code fenceline --version}: the version and the commit the jar was built from, as the build
 * wrote them into {@code fenceline-version.properties}. A build without a {@code .git} directory (a
 * source tarball) has no commit: it prints {@code commit unknown}.
 */
final class Version implements IVersionProvider {

  static final String RESOURCE = "fenceline-version.properties";
  static final String UNKNOWN = "unknown";

  /** {@code fenceline 0.1.0 (commit 1a2b3c4)}. */
  static String line() {
    Properties properties = new Properties();
    try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      // Reported as unknown below.
    }
    return "fenceline "
        + filled(properties.getProperty("version"))
        + " (commit "
        + filled(properties.getProperty("commit"))
        + ")";
  }

  /** {@code value}, or {@code unknown} if the build left it empty or unfilled ({@code ${...}}). */
  private static String filled(String value) {
    if (value == null || value.isBlank() || value.contains("${")) {
      return UNKNOWN;
    }
    return value.strip();
  }

  @Override
  public String[] getVersion() {
    return new String[] {line()};
  }
}
