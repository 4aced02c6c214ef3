package dev.fenceline.s3;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where an {@link S3PointerStore} keeps its objects, relative to the store's prefix:
 *
 * <ul>
 *   <li>{@code .fenceline/pointers/store.json}: the store's identity, created once;
 *   <li>{@code .fenceline/pointers/control/<resource>.json}: per resource, the registered epoch,
 *       its issuer and every destination name's current pointer (the only object ever overwritten,
 *       always conditionally);
 *   <li>{@code .fenceline/pointers/operations/<name>/<resource>/<sha256 of the operation>.json}:
 *       the receipt of an operation that is no longer the current one (create-only, immutable);
 *   <li>{@code .fenceline/pointers/versions/<name>/<resource>/<20-digit version>.json}: a pointer
 *       version that is no longer the current one (create-only, immutable).
 * </ul>
 *
 * <p>Why no two resources share a key: a resource ID is {@code /}-separated segments of {@code
 * [A-Za-z0-9._-]}, so resource {@code a} is a key prefix of resource {@code a/b}, and a layout like
 * {@code <resource>/control.json} would give resource {@code a/control.json} the keys of resource
 * {@code a}. Here the resource is always followed by exactly one fixed-form segment without a
 * {@code /}: {@code .json} appended to its last segment (control), or one more segment {@code <64
 * hex>.json} or {@code <20 digits>.json}. Stripping that last part gives back the resource, and the
 * area ({@code control}, {@code operations}, {@code versions}) and the destination name (one
 * segment of {@code [a-z0-9._-]}) come first, so the mapping from (area, name, resource, entry) to
 * a key is one-to-one. Operation IDs may hold any printable text, so they enter keys as their
 * SHA-256 only.
 */
final class PointerKeys {

  /** Everything of the pointer stores lives under this area of the prefix. */
  static final String AREA = ".fenceline/pointers";

  private PointerKeys() {}

  /** The store's identity object. */
  static String store() {
    return AREA + "/store.json";
  }

  /** The control object of {@code resource}, shared by every destination name. */
  static String control(ResourceId resource) {
    return AREA + "/control/" + resource.value() + ".json";
  }

  /** The immutable receipt object of {@code operation} at destination {@code name}. */
  static String operation(String name, ResourceId resource, OperationId operation) {
    return AREA
        + "/operations/"
        + name
        + "/"
        + resource.value()
        + "/"
        + sha256(operation)
        + ".json";
  }

  /** The immutable object of pointer version {@code version} at destination {@code name}. */
  static String version(String name, ResourceId resource, long version) {
    return AREA
        + "/versions/"
        + name
        + "/"
        + resource.value()
        + "/"
        + "%020d".formatted(version)
        + ".json";
  }

  private static String sha256(OperationId operation) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(operation.value().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
