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
