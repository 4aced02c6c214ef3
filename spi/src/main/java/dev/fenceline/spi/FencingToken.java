package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * Proof of one ownership period of a resource: the resource, the epoch the issuer handed out, and
 * the holder it was handed to. A token never proves ownership by itself; a destination compares its
 * epoch with the newest epoch it has registered, in the same atomic step as the change.
 *
 * @param resource the protected resource
 * @param epoch the epoch handed out by the issuer, at least 1
 * @param holder who acquired it, for diagnostics (see {@link #validateHolder})
 */
public record FencingToken(ResourceId resource, Epoch epoch, String holder) {

  /** Longest accepted holder name, in characters. */
  public static final int MAX_HOLDER_LENGTH = 200;

  /**
   * Validates the token.
   *
   * @throws IllegalArgumentException if the epoch is {@link Epoch#NONE} or the holder name breaks a
   *     rule of {@link #validateHolder}
   */
  public FencingToken {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    validateHolder(holder);
    if (epoch.equals(Epoch.NONE)) {
      throw new IllegalArgumentException(
          "Cannot create a fencing token for "
              + resource
              + ": epoch 0 is never issued (take the epoch from a LeaseIssuer)");
    }
  }

  /**
   * Checks a holder name: 1 to {@value #MAX_HOLDER_LENGTH} printable characters, not all
   * whitespace, well-formed UTF-16 without NUL (see {@link StorableText#requireIdentifier}).
   *
   * @return the holder name
   * @throws IllegalArgumentException if the name breaks a rule
   */
  public static String validateHolder(String holder) {
    return StorableText.requireIdentifier(
        "holder name", holder, MAX_HOLDER_LENGTH, "name the worker, e.g. worker-a@host-1");
  }

  @Override
  public String toString() {
    return resource + "@" + epoch + " (" + holder + ")";
  }
}
