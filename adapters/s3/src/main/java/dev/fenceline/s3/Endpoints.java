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
