package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

/**
 * Proof of one ownership period of a resource: the resource, the epoch the issuer handed out, and
 * the holder it was handed to. A token never proves ownership by itself; a destination compares its
 * epoch with the newest epoch it has registered, in the same atomic step as the change.
 *
 * @param resource the protected resource
 * @param epoch the epoch handed out by the issuer, at least 1
 * @param holder who acquired it, for diagnostics (1 to 200 printable characters)
 */
public record FencingToken(ResourceId resource, Epoch epoch, String holder) {

  /** Longest accepted holder name, in characters. */
  public static final int MAX_HOLDER_LENGTH = 200;

  /**
   * Validates the token.
   *
   * @throws IllegalArgumentException if the epoch is {@link Epoch#NONE} or the holder name is
   *     empty, too long or has control characters
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
   * Checks a holder name: 1 to {@value #MAX_HOLDER_LENGTH} characters without control characters.
   *
   * @return the holder name
   * @throws IllegalArgumentException if the name breaks a rule
   */
  public static String validateHolder(String holder) {
    requireNonNull(holder, "holder is null");
    if (holder.isBlank() || holder.length() > MAX_HOLDER_LENGTH || !Text.isPrintable(holder)) {
      throw new IllegalArgumentException(
          "Cannot use holder name "
              + Text.quoteForMessage(holder)
              + ": it must be 1 to "
              + MAX_HOLDER_LENGTH
              + " printable characters (for example worker-a@host-1)");
    }
    return holder;
  }

  @Override
  public String toString() {
    return resource + "@" + epoch + " (" + holder + ")";
  }
}
