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

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Shared secret keys that sign and verify {@link FencingToken}s with HMAC-SHA-256 (JDK {@code
 * javax.crypto}). An issuer configured with keys signs every token it hands out over (issuer,
 * resource, epoch, holder) with the {@linkplain Builder#signWith signing key}; a destination
 * configured with keys refuses unsigned tokens and tokens whose signature does not verify with any
 * of its keys ({@link UntrustedTokenException}), before it looks at the epoch. So a caller that can
 * reach the destination but does not hold a key can no longer register a made-up epoch (for example
 * {@code Long.MAX_VALUE}, which would lock the resource out for good).
 *
 * <p>Checking signatures is optional for a destination. One that cannot check them refuses to be
 * configured with keys ({@link UnsupportedCapabilityException} from its builder or factory) instead
 * of accepting keys it would ignore; the conformance kit checks one or the other.
 *
 * <p>Key rotation: every key has an ID that travels in the signature. Add the new key to every
 * destination first, then switch the issuers' signing key, then remove the old key once no token
 * signed with it is in use (leases are short).
 *
 * <p>Keys are never shown: {@link #toString()} lists key IDs only. Immutable and thread-safe.
 */
public final class TokenKeys {

  /** Shortest accepted key, in bytes (the HMAC-SHA-256 output size). */
  public static final int MIN_KEY_BYTES = 32;

  private static final String SCHEME = "hmac-sha256";
  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private final Map<String, byte[]> keys;
  private final String signingKeyId;

  private TokenKeys(Builder builder) {
    this.keys = new LinkedHashMap<>(builder.keys);
    this.signingKeyId = builder.signingKeyId;
  }

  /**
   * Starts a key set.
   *
   * @return a builder without keys
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Signs {@code token} with the signing key.
   *
   * @param token the token
   * @return the token with its signature
   */
  public FencingToken sign(FencingToken token) {
    requireNonNull(token, "token is null");
    return token.withSignature(
        SCHEME + ":" + signingKeyId + ":" + encode(mac(keys.get(signingKeyId), token)));
  }

  /**
   * Checks that {@code token} carries a signature made with one of these keys over exactly its
   * issuer, resource, epoch and holder.
   *
   * @param action what the caller is about to do, for the message (e.g. {@code write operation
   *     report-1 to reports})
   * @param token the token
   * @throws UntrustedTokenException if the token is unsigned, names an unknown key, or its
   *     signature does not verify
   */
  public void verify(FencingToken token, String action) {
    requireNonNull(token, "token is null");
    if (token.signature().isEmpty()) {
      throw new UntrustedTokenException(
          "Cannot "
              + action
              + " with token "
              + token
              + ": it is unsigned and this destination requires tokens signed by the issuer"
              + " (configure the issuer with the same TokenKeys)");
    }
    String[] parts = token.signature().get().split(":", -1);
    if (parts.length != 3 || !parts[0].equals(SCHEME)) {
      throw new UntrustedTokenException(
          "Cannot "
              + action
              + " with token "
              + token
              + ": its signature is not of the form "
              + SCHEME
              + ":<key-id>:<mac> (the token was altered; take tokens from the issuer)");
    }
    byte[] key = keys.get(parts[1]);
    if (key == null) {
      throw new UntrustedTokenException(
          "Cannot "
              + action
              + " with token "
              + token
              + ": it is signed with key ID "
              + Text.quoteForMessage(parts[1])
              + ", which this destination does not know (known: "
              + String.join(", ", keys.keySet())
              + "; add the issuer's key to the destination before the issuer signs with it)");
    }
    byte[] supplied;
    try {
      supplied = Base64.getUrlDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      supplied = new byte[0];
    }
    if (!MessageDigest.isEqual(supplied, mac(key, token))) {
      throw new UntrustedTokenException(
          "Cannot "
              + action
              + " with token "
              + token
              + ": its signature does not verify with key "
              + parts[1]
              + " (the token was altered or forged; take tokens from the issuer)");
    }
  }

  private static byte[] mac(byte[] key, FencingToken token) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      field(mac, "fenceline-token-v1");
      field(mac, token.issuer());
      field(mac, token.resource().value());
      field(mac, Long.toString(token.epoch().value()));
      field(mac, token.holder());
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform has HmacSHA256", e);
    }
  }

  /** Length-prefixed, so no two different tokens share an encoding. */
  private static void field(Mac mac, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    mac.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
    mac.update(bytes);
  }

  private static String encode(byte[] mac) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
  }

  /** Lists the key IDs and the signing key ID; never the keys. */
  @Override
  public String toString() {
    return "TokenKeys[keys=" + keys.keySet() + ", signing=" + signingKeyId + "]";
  }

  /** Validating builder for {@link TokenKeys}. */
  public static final class Builder {
    private final Map<String, byte[]> keys = new LinkedHashMap<>();
    private String signingKeyId;

    private Builder() {}

    /**
     * Adds a key.
     *
     * @param keyId 1 to 64 characters from {@code [A-Za-z0-9._-]}, travels in every signature
     * @param secret at least {@value #MIN_KEY_BYTES} random bytes (copied)
     * @return this builder
     * @throws ConfigurationException if the ID is invalid or taken, or the key is too short
     */
    public Builder key(String keyId, byte[] secret) {
      requireNonNull(keyId, "keyId is null");
      requireNonNull(secret, "secret is null");
      if (!KEY_ID.matcher(keyId).matches()) {
        throw new ConfigurationException(
            "Cannot add token key "
                + Text.quoteForMessage(keyId)
                + ": key IDs are 1 to 64 characters from [A-Za-z0-9._-] (e.g. 2026-11)");
      }
      if (secret.length < MIN_KEY_BYTES) {
        throw new ConfigurationException(
            "Cannot add token key "
                + keyId
                + ": it has "
                + secret.length
                + " bytes, fewer than "
                + MIN_KEY_BYTES
                + " (generate 32 random bytes, e.g. openssl rand -base64 32)");
      }
      if (keys.containsKey(keyId)) {
        throw new ConfigurationException(
            "Cannot add token key "
                + keyId
                + ": the ID is already used (give each key its own ID)");
      }
      keys.put(keyId, Arrays.copyOf(secret, secret.length));
      return this;
    }

    /**
     * The key issuers sign with. Default: the only key, if exactly one was added.
     *
     * @param keyId the key's ID
     * @return this builder
     * @throws ConfigurationException if no key with this ID was added
     */
    public Builder signWith(String keyId) {
      requireNonNull(keyId, "keyId is null");
      if (!keys.containsKey(keyId)) {
        throw new ConfigurationException(
            "Cannot sign with token key "
                + Text.quoteForMessage(keyId)
                + ": no such key was added (known: "
                + String.join(", ", keys.keySet())
                + ")");
      }
      this.signingKeyId = keyId;
      return this;
    }

    /**
     * Builds the key set.
     *
     * @return the key set
     * @throws ConfigurationException if no key was added, or several and no signing key was chosen
     */
    public TokenKeys build() {
      if (keys.isEmpty()) {
        throw new ConfigurationException(
            "Cannot build token keys: no key was added (call key(id, 32 random bytes))");
      }
      if (signingKeyId == null) {
        if (keys.size() > 1) {
          throw new ConfigurationException(
              "Cannot build token keys: "
                  + keys.size()
                  + " keys were added and none was chosen for signing (call signWith(id))");
        }
        signingKeyId = keys.keySet().iterator().next();
      }
      return new TokenKeys(this);
    }
  }
}
