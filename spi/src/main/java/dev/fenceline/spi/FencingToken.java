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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Proof of one ownership period of a resource: the issuer that handed it out, the resource, the
 * epoch, and the holder it was handed to. A token never proves ownership by itself; a destination
 * compares its epoch with the newest epoch it has registered, in the same atomic step as the
 * change.
 *
 * <p>The trust boundary: epochs are only comparable within one issuer's sequence, so a destination
 * records the issuer of the first token it registers for a resource and refuses tokens of any other
 * issuer ({@link UntrustedTokenException}). Anyone who can call a destination can still build a
 * token by hand with a huge epoch; a destination configured with {@link TokenKeys} accepts only
 * tokens whose {@link #signature()} the issuer made with a shared key.
 *
 * @param issuer the identity of the issuer that handed the token out ({@link LeaseIssuer#id()}): 1
 *     to {@value #MAX_ISSUER_LENGTH} characters from {@code [A-Za-z0-9._:-]}
 * @param resource the protected resource
 * @param epoch the epoch handed out by the issuer, at least 1
 * @param holder who acquired it, for diagnostics (see {@link #validateHolder})
 * @param signature the issuer's HMAC signature over issuer, resource, epoch and holder ({@link
 *     TokenKeys#sign}), or empty for an unsigned token
 */
public record FencingToken(
    String issuer, ResourceId resource, Epoch epoch, String holder, Optional<String> signature) {

  /** Longest accepted holder name, in characters. */
  public static final int MAX_HOLDER_LENGTH = 200;

  /** Longest accepted issuer identity, in characters. */
  public static final int MAX_ISSUER_LENGTH = 100;

  private static final Pattern ISSUER = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

  /**
   * Validates the token.
   *
   * @param issuer the issuer's identity ({@link LeaseIssuer#id()})
   * @param resource the resource
   * @param epoch the epoch
   * @param holder the holder the lease was granted to
   * @param signature the signature, or empty if unsigned
   * @throws IllegalArgumentException if the issuer identity breaks its rule, the epoch is {@link
   *     Epoch#NONE} or the holder name breaks a rule of {@link #validateHolder}
   */
  public FencingToken {
    validateIssuer(issuer);
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    validateHolder(holder);
    requireNonNull(signature, "signature is null (use Optional.empty() for an unsigned token)");
    if (epoch.equals(Epoch.NONE)) {
      throw new IllegalArgumentException(
          "Cannot create a fencing token for "
              + resource
              + ": epoch 0 is never issued (take the epoch from a LeaseIssuer)");
    }
  }

  /**
   * An unsigned token.
   *
   * @param issuer the issuer's identity ({@link LeaseIssuer#id()})
   * @param resource the resource
   * @param epoch the epoch
   * @param holder the holder the lease was granted to
   */
  public FencingToken(String issuer, ResourceId resource, Epoch epoch, String holder) {
    this(issuer, resource, epoch, holder, Optional.empty());
  }

  /**
   * {@return this token with {@code signature} (made by {@link TokenKeys#sign})}
   *
   * @param signature the signature, or empty if unsigned
   */
  public FencingToken withSignature(String signature) {
    return new FencingToken(
        issuer,
        resource,
        epoch,
        holder,
        Optional.of(requireNonNull(signature, "signature is null")));
  }

  /**
   * Checks an issuer identity: 1 to {@value #MAX_ISSUER_LENGTH} characters from {@code
   * [A-Za-z0-9._:-]}.
   *
   * @param issuer the issuer's identity ({@link LeaseIssuer#id()})
   * @return the identity
   * @throws IllegalArgumentException if it breaks the rule
   */
  public static String validateIssuer(String issuer) {
    requireNonNull(issuer, "issuer is null");
    if (!ISSUER.matcher(issuer).matches()) {
      throw new IllegalArgumentException(
          "Cannot use issuer identity "
              + Text.quoteForMessage(issuer)
              + ": it must be 1 to "
              + MAX_ISSUER_LENGTH
              + " characters from [A-Za-z0-9._:-] (for example jdbc-3f2a...)");
    }
    return issuer;
  }

  /**
   * Checks a holder name: 1 to {@value #MAX_HOLDER_LENGTH} printable characters, not all
   * whitespace, well-formed UTF-16 without NUL (see {@link StorableText#requireIdentifier}).
   *
   * @param holder the holder the lease was granted to
   * @return the holder name
   * @throws IllegalArgumentException if the name breaks a rule
   */
  public static String validateHolder(String holder) {
    return StorableText.requireIdentifier(
        "holder name", holder, MAX_HOLDER_LENGTH, "name the worker, e.g. worker-a@host-1");
  }

  @Override
  public String toString() {
    // The signature is never printed: it would let a reader of the logs replay the token.
    return resource + "@" + epoch + " (" + holder + ")";
  }
}
