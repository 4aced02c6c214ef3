package dev.fenceline.s3;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One version of a resource's control object: the registered epoch, the issuer it is bound to, and
 * per destination name the current pointer entry only (older entries live in immutable objects, so
 * the control object stays small). Replaced as a whole by a conditional PUT, never changed in
 * place.
 *
 * <p>{@code writes} holds the nonces of the last {@value #RECENT_WRITES} requests that wrote the
 * object, newest first. It serves two purposes: a writer whose answer was lost finds out whether
 * its PUT landed (the SDK's retry of a landed conditional PUT comes back as 412), and every version
 * has different content. The latter matters because S3 ETags are content digests: without a nonce a
 * state could come back byte for byte (register 5, reset to 4, register 5) and a writer holding the
 * old ETag would swap against a state it never read (ABA).
 *
 * @param epoch the registered epoch, {@link Epoch#NONE} if none
 * @param issuer the issuer the resource is bound to, or null until a token binds it
 * @param writes nonces of the latest writes, newest first, at most {@value #RECENT_WRITES}
 * @param names per destination name, its current entry
 */
record ControlObject(Epoch epoch, String issuer, List<String> writes, Map<String, Entry> names) {

  /** The only format this version reads and writes. */
  static final int FORMAT = 1;

  /** How many write nonces the object keeps. */
  static final int RECENT_WRITES = 8;

  /** The state of a resource that has no control object. */
  static final ControlObject EMPTY = new ControlObject(Epoch.NONE, null, List.of(), Map.of());

  private static final JsonMapper JSON = JsonMapper.builder().build();

  ControlObject {
    requireNonNull(epoch, "epoch is null");
    writes = List.copyOf(writes);
    names = Map.copyOf(names);
  }

  /** The current entry of destination {@code name}, or null if it never applied anything. */
  Entry entry(String name) {
    return names.get(name);
  }

  /** This state with {@code epoch} registered for {@code issuer}, written by {@code nonce}. */
  ControlObject registered(Epoch newer, String boundIssuer, String nonce) {
    return new ControlObject(newer, boundIssuer, withWrite(nonce), names);
  }

  /** This state with {@code entry} as {@code name}'s current entry, written by {@code nonce}. */
  ControlObject applied(String name, Entry entry, Epoch newer, String boundIssuer, String nonce) {
    Map<String, Entry> next = new TreeMap<>(names);
    next.put(name, entry);
    return new ControlObject(newer, boundIssuer, withWrite(nonce), next);
  }

  private List<String> withWrite(String nonce) {
    List<String> next = new ArrayList<>(RECENT_WRITES);
    next.add(requireNonNull(nonce, "nonce is null"));
    for (int i = 0; i < writes.size() && next.size() < RECENT_WRITES; i++) {
      next.add(writes.get(i));
    }
    return next;
  }

  /** The object's JSON. */
  byte[] toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("epoch", epoch.value());
    if (issuer == null) {
      root.putNull("issuer");
    } else {
      root.put("issuer", issuer);
    }
    writes.forEach(root.putArray("writes")::add);
    ObjectNode entries = root.putObject("names");
    new TreeMap<>(names).forEach((name, entry) -> entries.set(name, entry.toNode()));
    return JSON.writeValueAsBytes(root);
  }

  /**
   * Reads a control object of {@code resource} stored at {@code shown}.
   *
   * @throws StoreException if it is not JSON, has another format, or a field is missing or invalid:
   *     a control object this version cannot read is never taken as an empty state
   */
  static ControlObject parse(byte[] json, String shown) {
    JsonNode root = readRoot(json, shown);
    try {
      Epoch epoch = Epoch.of(longField(root, "epoch"));
      // Required (null until bound): a missing issuer must not read as an unbound resource.
      JsonNode issuerNode = field(root, "issuer");
      String issuer = null;
      if (!issuerNode.isNull()) {
        issuer = FencingToken.validateIssuer(stringField(root, "issuer"));
      }
      List<String> writes = new ArrayList<>();
      JsonNode writesNode = field(root, "writes");
      if (!writesNode.isArray()) {
        throw new IllegalArgumentException("field \"writes\" is not an array");
      }
      for (JsonNode write : writesNode) {
        if (!write.isString()) {
          throw new IllegalArgumentException("field \"writes\" holds a value that is not text");
        }
        writes.add(write.stringValue());
      }
      JsonNode namesNode = field(root, "names");
      if (!namesNode.isObject()) {
        throw new IllegalArgumentException("field \"names\" is not an object");
      }
      Map<String, Entry> names = new TreeMap<>();
      for (Map.Entry<String, JsonNode> named : namesNode.properties()) {
        names.put(
            dev.fenceline.spi.Destination.validateName(named.getKey()),
            Entry.fromNode(named.getValue()));
      }
      return new ControlObject(epoch, issuer, writes, names);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw unreadable(shown, e.getMessage(), e);
    }
  }

  private static JsonNode readRoot(byte[] json, String shown) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JacksonException e) {
      throw unreadable(shown, "it is not valid JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw unreadable(shown, "it is not a JSON object", null);
    }
    JsonNode format = root.get("format");
    if (format == null
        || !format.isIntegralNumber()
        || !format.canConvertToLong()
        || format.asLong() != FORMAT) {
      throw unreadable(
          shown,
          "its format "
              + (format == null ? "is missing" : format.toString() + " is not supported")
              + ", expected "
              + FORMAT,
          null);
    }
    return root;
  }

  private static StoreException unreadable(String shown, String reason, Throwable cause) {
    return new StoreException(
        "Cannot read pointer object "
            + shown
            + ": "
            + reason
            + " (it was written by another Fenceline version or changed by hand; restore it from"
            + " a backup or its object versions, never delete it: that would reset the fence)",
        cause,
        false);
  }

  private static JsonNode field(JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null) {
      throw new IllegalArgumentException("field \"" + name + "\" is missing");
    }
    return value;
  }

  private static long longField(JsonNode node, String name) {
    JsonNode value = field(node, name);
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new IllegalArgumentException("field \"" + name + "\" is not a whole number");
    }
    return value.longValue();
  }

  private static String stringField(JsonNode node, String name) {
    JsonNode value = field(node, name);
    if (!value.isString()) {
      throw new IllegalArgumentException("field \"" + name + "\" is not text");
    }
    return value.stringValue();
  }

  /**
   * One applied pointer swap of one destination name: the pointer version and the operation's
   * receipt. Current in the control object; once replaced, stored as an immutable operation object
   * and an immutable version object with the same content.
   *
   * @param version the pointer version, from 1
   * @param pointer the pointer set by the swap
   * @param epoch the epoch it was applied under
   * @param operation the operation
   * @param fingerprint the request's fingerprint
   * @param recordedAt when it was recorded
   * @param attempt the nonce of the control write that applied it
   */
  record Entry(
      long version,
      Pointer pointer,
      Epoch epoch,
      OperationId operation,
      RequestFingerprint fingerprint,
      Instant recordedAt,
      String attempt) {

    Entry {
      if (version < 1) {
        throw new IllegalArgumentException("pointer version " + version + " is not positive");
      }
      requireNonNull(pointer, "pointer is null");
      requireNonNull(epoch, "epoch is null");
      requireNonNull(operation, "operation is null");
      requireNonNull(fingerprint, "fingerprint is null");
      requireNonNull(recordedAt, "recordedAt is null");
      requireNonNull(attempt, "attempt is null");
    }

    /** The receipt of this entry's operation at destination {@code name}. */
    Receipt receipt(String name, ResourceId resource) {
      return new Receipt(name, resource, operation, epoch, recordedAt, pointer.receiptAttributes());
    }

    /** The pointer state of this entry. */
    PointerState state(ResourceId resource) {
      return new PointerState(resource, pointer, epoch, operation, version);
    }

    /**
     * The immutable object of this entry (operation and version objects hold the same bytes): it
     * names its resource and destination, so a misplaced object is noticed.
     */
    byte[] toStoredJson(String name, ResourceId resource) {
      ObjectNode root = JSON.createObjectNode();
      root.put("format", FORMAT);
      root.put("resource", resource.value());
      root.put("name", name);
      root.set("entry", toNode());
      return JSON.writeValueAsBytes(root);
    }

    /**
     * Reads an immutable entry object of {@code name} and {@code resource} stored at {@code shown}.
     *
     * @throws StoreException if it cannot be read or belongs elsewhere
     */
    static Entry parseStored(byte[] json, String shown, String name, ResourceId resource) {
      JsonNode root = readRoot(json, shown);
      try {
        String storedResource = stringField(root, "resource");
        String storedName = stringField(root, "name");
        if (!storedResource.equals(resource.value()) || !storedName.equals(name)) {
          throw new IllegalArgumentException(
              "it belongs to "
                  + storedName
                  + " of "
                  + storedResource
                  + ", expected "
                  + name
                  + " of "
                  + resource);
        }
        return fromNode(field(root, "entry"));
      } catch (IllegalArgumentException | NullPointerException e) {
        throw unreadable(shown, e.getMessage(), e);
      }
    }

    private ObjectNode toNode() {
      ObjectNode node = JSON.createObjectNode();
      node.put("version", version);
      node.put("target", pointer.target());
      ObjectNode attributes = node.putObject("attributes");
      new TreeMap<>(pointer.attributes()).forEach(attributes::put);
      node.put("epoch", epoch.value());
      node.put("operation", operation.value());
      node.put("fingerprint", fingerprint.value());
      node.put("recordedAt", recordedAt.toString());
      node.put("attempt", attempt);
      return node;
    }

    private static Entry fromNode(JsonNode node) {
      if (!node.isObject()) {
        throw new IllegalArgumentException("an entry is not an object");
      }
      JsonNode attributesNode = field(node, "attributes");
      if (!attributesNode.isObject()) {
        throw new IllegalArgumentException("field \"attributes\" is not an object");
      }
      Map<String, String> attributes = new TreeMap<>();
      for (Map.Entry<String, JsonNode> attribute : attributesNode.properties()) {
        attributes.put(attribute.getKey(), stringField(attributesNode, attribute.getKey()));
      }
      Instant recordedAt;
      try {
        recordedAt = Instant.parse(stringField(node, "recordedAt"));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("field \"recordedAt\" is not an instant", e);
      }
      return new Entry(
          longField(node, "version"),
          new Pointer(stringField(node, "target"), attributes),
          Epoch.of(longField(node, "epoch")),
          OperationId.of(stringField(node, "operation")),
          new RequestFingerprint(stringField(node, "fingerprint")),
          recordedAt,
          stringField(node, "attempt"));
    }
  }
}
