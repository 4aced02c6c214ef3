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

import dev.fenceline.spi.RequestFingerprint;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One call to an external API: the change an HTTP destination applies for one business operation.
 * The same operation must always be asked with the same request; its {@link #fingerprint()} is
 * recorded with the operation and a retry with another request is refused before anything is sent.
 *
 * <p>The body is either bytes held in memory (small JSON documents) or a file that is streamed on
 * every attempt and never loaded whole. A file must not change while an operation is retried: its
 * fingerprint is taken once, when the request is created, together with the file's size and
 * last-modified time; an attempt is refused before any byte of it is sent if either changed.
 *
 * <p>Create requests with {@link #postJson} or {@link #of}. Two requests are equal when their
 * fingerprints are.
 */
public final class ApiRequest {

  private static final Set<String> METHODS = Set.of("POST", "PUT", "PATCH", "DELETE");
  // What the destination sets itself, and the default key and token headers.
  private static final Set<String> RESERVED_HEADERS = reservedHeaders();

  /** A request body that can be sent again on every attempt. */
  public sealed interface Body permits BytesBody, FileBody {
    /** The body's length in bytes. */
    long length();

    /** Opens the body for one attempt; the caller closes the stream. */
    InputStream open() throws IOException;
  }

  /**
   * A body held in memory.
   *
   * @param bytes the bytes (copied)
   */
  public record BytesBody(byte[] bytes) implements Body {
    /** Copies the bytes. */
    public BytesBody {
      bytes = requireNonNull(bytes, "bytes is null").clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public long length() {
      return bytes.length;
    }

    @Override
    public InputStream open() {
      return new java.io.ByteArrayInputStream(bytes);
    }
  }

  /**
   * A body streamed from a file on every attempt.
   *
   * @param file a regular file
   */
  public record FileBody(Path file) implements Body {
    /** Validates the file. */
    public FileBody {
      requireNonNull(file, "file is null");
    }

    @Override
    public long length() {
      try {
        return Files.size(file);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot read the size of request body " + file + ": " + e.getMessage(), e);
      }
    }

    @Override
    public InputStream open() throws IOException {
      return Files.newInputStream(file);
    }
  }

  private final String method;
  private final String path;
  private final String contentType;
  private final Map<String, String> headers;
  private final Body body;
  private final RequestFingerprint fingerprint;
  // A file body's size and last-modified time when its fingerprint was taken; null for bytes.
  private final BasicFileAttributes fileState;

  private ApiRequest(
      String method, String path, String contentType, Map<String, String> headers, Body body) {
    requireNonNull(method, "method is null");
    requireNonNull(path, "path is null");
    requireNonNull(contentType, "contentType is null");
    requireNonNull(headers, "headers is null");
    requireNonNull(body, "body is null");
    method = method.toUpperCase(Locale.ROOT);
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException(
          "Cannot send an API request with method "
              + quote(method)
              + ": a fenced call changes something, use POST, PUT, PATCH or DELETE");
    }
    validatePath(path);
    if (contentType.isBlank() || containsControl(contentType)) {
      throw new IllegalArgumentException(
          "Cannot send an API request with content type "
              + quote(contentType)
              + ": give a media type such as application/json");
    }
    TreeMap<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach(
        (name, value) -> {
          requireNonNull(name, "header name is null");
          requireNonNull(value, "value of header " + name + " is null");
          if (!HeaderNames.HEADER_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                "Cannot send header " + quote(name) + ": it is not a valid HTTP header name");
          }
          if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                "Cannot send header "
                    + name
                    + " in an API request: the destination sets it (credentials, idempotency key,"
                    + " fencing token and framing are never part of the request)");
          }
          if (containsControl(value)) {
            throw new IllegalArgumentException(
                "Cannot send header " + name + ": its value contains a control character");
          }
          if (copy.put(name, value) != null) {
            throw new IllegalArgumentException(
                "Cannot send header " + name + " twice (header names ignore case)");
          }
        });
    this.method = method;
    this.path = path;
    this.contentType = contentType;
    this.headers = Collections.unmodifiableSortedMap(copy);
    this.body = body;
    // Taken before the content is read: a change while it is read shows as a change later.
    this.fileState = body instanceof FileBody file ? attributes(file.file()) : null;
    this.fingerprint = fingerprintOf(method, path, contentType, this.headers, body);
  }

  /**
   * A file body changed after its fingerprint was taken, or is gone: an attempt sending it would
   * not send the request the operation recorded. Thrown before any byte of the attempt is sent.
   */
  static final class BodyChangedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;

    BodyChangedException(Path file, String reason, Throwable cause) {
      super(reason, cause);
      this.file = file;
    }

    /** The body's file. */
    Path file() {
      return file;
    }
  }

  /**
   * Checks that a file body still has the size and last-modified time it had when the fingerprint
   * was taken; a bytes body never changes.
   *
   * @throws BodyChangedException if either changed or the file cannot be read
   */
  void checkBodyUnchanged() {
    if (!(body instanceof FileBody file)) {
      return;
    }
    BasicFileAttributes now;
    try {
      now = Files.readAttributes(file.file(), BasicFileAttributes.class);
    } catch (IOException e) {
      throw new BodyChangedException(
          file.file(), "it cannot be read any more (" + e.getClass().getSimpleName() + ")", e);
    }
    if (now.size() != fileState.size()
        || !now.lastModifiedTime().equals(fileState.lastModifiedTime())) {
      throw new BodyChangedException(
          file.file(),
          "it changed since its fingerprint was taken (then "
              + fileState.size()
              + " bytes, last modified "
              + fileState.lastModifiedTime()
              + "; now "
              + now.size()
              + " bytes, last modified "
              + now.lastModifiedTime()
              + ")",
          null);
    }
  }

  private static BasicFileAttributes attributes(Path file) {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the request body " + file + " to fingerprint it: " + e.getMessage(), e);
    }
  }

  /** {@code POST}, {@code PUT}, {@code PATCH} or {@code DELETE}. */
  public String method() {
    return method;
  }

  /** The path and query relative to the destination's base URI, starting with {@code /}. */
  public String path() {
    return path;
  }

  /** The body's media type, such as {@code application/json}. */
  public String contentType() {
    return contentType;
  }

  /**
   * Extra request headers, part of the request's identity (never credentials: the destination adds
   * {@code Authorization}, the idempotency key and the token header itself), sorted ignoring case.
   */
  public Map<String, String> headers() {
    return headers;
  }

  /** The body. */
  public Body body() {
    return body;
  }

  /** The SHA-256 over method, path, content type, headers and body, taken at creation. */
  public RequestFingerprint fingerprint() {
    return fingerprint;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ApiRequest request && request.fingerprint.equals(fingerprint);
  }

  @Override
  public int hashCode() {
    return fingerprint.hashCode();
  }

  @Override
  public String toString() {
    return method + " " + path + " (" + contentType + ", " + fingerprint + ")";
  }

  /** A {@code POST} of a JSON document. */
  public static ApiRequest postJson(String path, String json) {
    requireNonNull(json, "json is null");
    return of(
        "POST",
        path,
        "application/json",
        Map.of(),
        new BytesBody(json.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * A request with any body; the fingerprint is computed here (a file body is read once, streamed).
   *
   * @throws IllegalArgumentException if the method is not one that changes something, the path is
   *     not relative, or a header is invalid or reserved
   * @throws UncheckedIOException if a file body cannot be read
   */
  public static ApiRequest of(
      String method, String path, String contentType, Map<String, String> headers, Body body) {
    return new ApiRequest(method, path, contentType, headers, body);
  }

  /** The URI of this request under {@code base} (the destination's base URI). */
  public URI resolve(URI base) {
    return resolve(base, path);
  }

  /** {@code path} (relative, starting with /) under {@code base}, as every request is sent. */
  static URI resolve(URI base, String path) {
    String prefix = base.toString();
    if (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    return URI.create(prefix + path);
  }

  /**
   * A publisher that streams the body again, for one attempt.
   *
   * @throws BodyChangedException if a file body is gone
   */
  java.net.http.HttpRequest.BodyPublisher publisher() {
    if (body instanceof FileBody file) {
      try {
        return java.net.http.HttpRequest.BodyPublishers.ofFile(file.file());
      } catch (java.io.FileNotFoundException e) {
        throw new BodyChangedException(file.file(), "the file is gone", e);
      }
    }
    return java.net.http.HttpRequest.BodyPublishers.ofByteArray(((BytesBody) body).bytes());
  }

  private static Set<String> reservedHeaders() {
    Set<String> reserved = new java.util.HashSet<>(HeaderNames.SET_BY_THE_DESTINATION);
    reserved.add("idempotency-key");
    reserved.add("fencing-token");
    return Set.copyOf(reserved);
  }

  private static void validatePath(String path) {
    boolean bad =
        path.isEmpty()
            || path.charAt(0) != '/'
            || path.startsWith("//")
            || containsControl(path)
            || path.contains(" ")
            || path.contains("#");
    if (!bad) {
      try {
        URI uri = new URI("http://h" + path);
        String segments = uri.getRawPath() == null ? "" : uri.getRawPath();
        for (String segment : segments.split("/")) {
          if (segment.equals("..") || segment.equals(".")) {
            bad = true;
          }
        }
      } catch (URISyntaxException e) {
        bad = true;
      }
    }
    if (bad) {
      throw new IllegalArgumentException(
          "Cannot send an API request to path "
              + quote(path)
              + ": give a path and query relative to the base URI, starting with / and without"
              + " spaces, fragments or dot segments (e.g. /v1/payments?expand=charge)");
    }
  }

  private static RequestFingerprint fingerprintOf(
      String method, String path, String contentType, Map<String, String> headers, Body body) {
    MessageDigest digest = sha256();
    update(digest, method);
    update(digest, path);
    update(digest, contentType);
    TreeMap<String, String> lower = new TreeMap<>();
    headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));
    update(digest, Integer.toString(lower.size()));
    lower.forEach(
        (name, value) -> {
          update(digest, name);
          update(digest, value);
        });
    MessageDigest bodyDigest = sha256();
    try (InputStream in = body.open()) {
      byte[] buffer = new byte[64 * 1024];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        bodyDigest.update(buffer, 0, n);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the request body to fingerprint it: " + e.getMessage(), e);
    }
    update(digest, HexFormat.of().formatHex(bodyDigest.digest()));
    return RequestFingerprint.ofSha256Hex(HexFormat.of().formatHex(digest.digest()));
  }

  private static void update(MessageDigest digest, String field) {
    byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
    digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    digest.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static boolean containsControl(String value) {
    return value.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
  }

  static String quote(String value) {
    StringBuilder out = new StringBuilder("\"");
    value
        .codePoints()
        .limit(80)
        .forEach(
            c -> {
              if (c == '"' || c == '\\') {
                out.append('\\').appendCodePoint(c);
              } else if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\u%04x", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    if (value.codePointCount(0, value.length()) > 80) {
      out.append("...");
    }
    return out.append('"').toString();
  }
}
