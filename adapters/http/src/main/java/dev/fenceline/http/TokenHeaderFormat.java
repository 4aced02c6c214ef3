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

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.ResourceId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * How a {@link NativeHttpDestination} writes a {@link FencingToken} into the token header of every
 * request. The API that receives it compares the epoch itself.
 *
 * <ul>
 *   <li>{@link #FULL}: {@code v1;issuer=<i>;resource=<r>;epoch=<n>;holder=<h>[;signature=<s>]},
 *       each value percent-encoded (RFC 3986: every byte of its UTF-8 form except {@code
 *       A-Za-z0-9-._~} becomes {@code %XX}, upper-case hex), in exactly this order, the signature
 *       only if the token has one. For example {@code
 *       v1;issuer=jdbc-3f2a;resource=reports%2Fnightly;epoch=34;holder=worker-b%40host-1}. The API
 *       can check everything a Fenceline destination checks: the issuer binding and, with the
 *       issuer's keys, the signature ({@link #decodeFull} gives the token back).
 *   <li>{@link #COMPACT}: {@code <resource>:<epoch>}, e.g. {@code reports/nightly:34}, for APIs
 *       that only want that. Such an API can compare epochs, but it cannot refuse a token of
 *       another issuer or a forged one: anyone who can call it can register a made-up epoch. Prefer
 *       {@link #FULL} wherever the API can parse it.
 * </ul>
 *
 * <p>Both forms are plain ASCII and safe in an HTTP header value.
 */
public enum TokenHeaderFormat {
  /** Issuer, resource, epoch, holder and signature, percent-encoded; see the class comment. */
  FULL {
    @Override
    public String encode(FencingToken token) {
      requireNonNull(token, "token is null");
      StringBuilder out =
          new StringBuilder(VERSION)
              .append(";issuer=")
              .append(percentEncode(token.issuer()))
              .append(";resource=")
              .append(percentEncode(token.resource().value()))
              .append(";epoch=")
              .append(token.epoch().value())
              .append(";holder=")
              .append(percentEncode(token.holder()));
      token.signature().ifPresent(s -> out.append(";signature=").append(percentEncode(s)));
      return out.toString();
    }
  },

  /** Only {@code <resource>:<epoch>}; the API cannot check issuer or signature. */
  COMPACT {
    @Override
    public String encode(FencingToken token) {
      requireNonNull(token, "token is null");
      // A resource ID never contains ':', so the last ':' separates the epoch.
      return token.resource().value() + ":" + token.epoch().value();
    }
  };

  private static final String VERSION = "v1";
  private static final String[] FIELDS = {"issuer", "resource", "epoch", "holder", "signature"};

  /** The header value for {@code token}. */
  public abstract String encode(FencingToken token);

  /**
   * Reads a {@link #FULL} header value back into the token it was made from, for an API (or a fake
   * API in tests) that checks tokens with Fenceline's own destinations. Strict: fields in the
   * documented order, no unknown or repeated field, canonical percent-encoding.
   *
   * @throws IllegalArgumentException if the value is not a well-formed {@link #FULL} token; the
   *     message names the field, never the signature
   */
  public static FencingToken decodeFull(String header) {
    requireNonNull(header, "header is null");
    String[] parts = header.split(";", -1);
    if (parts.length < 5 || parts.length > 6 || !parts[0].equals(VERSION)) {
      throw malformed("it is not v1;issuer=...;resource=...;epoch=...;holder=...[;signature=...]");
    }
    String[] values = new String[FIELDS.length];
    for (int i = 1; i < parts.length; i++) {
      String field = FIELDS[i - 1];
      if (!parts[i].startsWith(field + "=")) {
        throw malformed("field " + i + " must be " + field);
      }
      values[i - 1] = percentDecode(field, parts[i].substring(field.length() + 1));
    }
    long epoch;
    if (!values[2].matches("[1-9][0-9]{0,18}")) {
      throw malformed("the epoch is not a positive decimal number");
    }
    try {
      epoch = Long.parseLong(values[2]);
    } catch (NumberFormatException e) {
      throw malformed("the epoch is larger than " + Long.MAX_VALUE);
    }
    try {
      return new FencingToken(
          values[0],
          ResourceId.of(values[1]),
          Epoch.of(epoch),
          values[3],
          Optional.ofNullable(values[4]));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot decode fencing token header: " + e.getMessage(), e);
    }
  }

  /** Percent-encodes the UTF-8 bytes of {@code value}, keeping only RFC 3986 unreserved bytes. */
  static String percentEncode(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (isUnreserved(c)) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private static boolean isUnreserved(int c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }

  private static String percentDecode(String field, String encoded) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '%') {
        if (i + 2 >= encoded.length()) {
          throw malformed("the " + field + " has a truncated %-escape");
        }
        int high = Character.digit(encoded.charAt(i + 1), 16);
        int low = Character.digit(encoded.charAt(i + 2), 16);
        int value = (high << 4) | low;
        boolean canonical =
            high >= 0
                && low >= 0
                && !isUnreserved(value)
                && encoded
                    .substring(i + 1, i + 3)
                    .equals(encoded.substring(i + 1, i + 3).toUpperCase());
        if (!canonical) {
          throw malformed("the " + field + " has a non-canonical %-escape");
        }
        bytes.write(value);
        i += 2;
      } else if (isUnreserved(c)) {
        bytes.write(c);
      } else {
        throw malformed("the " + field + " has a character that must be %-encoded");
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw malformed("the " + field + " is not UTF-8");
    }
  }

  private static IllegalArgumentException malformed(String reason) {
    return new IllegalArgumentException(
        "Cannot decode fencing token header: "
            + reason
            + " (send TokenHeaderFormat.FULL.encode(token) unchanged)");
  }
}
