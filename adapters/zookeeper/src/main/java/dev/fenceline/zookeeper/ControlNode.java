package dev.fenceline.zookeeper;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The content of a resource's control node: the registered epoch, the issuer it is bound to, and
 * per destination name the current pointer entry (every entry, current or not, also lives in an
 * immutable version node and an immutable operation node created in the same transaction).
 *
 * <p>{@code writes} holds the nonces of the last {@value #RECENT_WRITES} transactions that wrote
 * the node, newest first: a writer whose transaction was refused after Curator re-sent it (its
 * first answer lost) finds out whether the first attempt landed.
 *
 * @param epoch the registered epoch, {@link Epoch#NONE} if none
 * @param issuer the issuer the resource is bound to, or null until a token binds it
 * @param writes nonces of the latest writes, newest first, at most {@value #RECENT_WRITES}
 * @param names per destination name, its current entry
 */
record ControlNode(Epoch epoch, String issuer, List<String> writes, Map<String, Entry> names) {

  /** How many write nonces the node keeps. */
  static final int RECENT_WRITES = 8;

  /** The state of a resource that has no control node. */
  static final ControlNode EMPTY = new ControlNode(Epoch.NONE, null, List.of(), Map.of());

  ControlNode {
    requireNonNull(epoch, "epoch is null");
    writes = List.copyOf(writes);
    names = Map.copyOf(names);
  }

  /** The current entry of destination {@code name}, or null if it never applied anything. */
  Entry entry(String name) {
    return names.get(name);
  }

  /** This state with {@code newer} registered for {@code boundIssuer}, written by {@code nonce}. */
  ControlNode registered(Epoch newer, String boundIssuer, String nonce) {
    return new ControlNode(newer, boundIssuer, withWrite(nonce), names);
  }

  /** This state with {@code entry} as {@code name}'s current entry, written by {@code nonce}. */
  ControlNode applied(String name, Entry entry, Epoch newer, String boundIssuer, String nonce) {
    Map<String, Entry> next = new TreeMap<>(names);
    next.put(name, entry);
    return new ControlNode(newer, boundIssuer, withWrite(nonce), next);
  }

  private List<String> withWrite(String nonce) {
    List<String> next = new ArrayList<>(RECENT_WRITES);
    next.add(requireNonNull(nonce, "nonce is null"));
    for (int i = 0; i < writes.size() && next.size() < RECENT_WRITES; i++) {
      next.add(writes.get(i));
    }
    return next;
  }

  byte[] toJson() {
    ObjectNode root = Json.object();
    root.put("epoch", epoch.value());
    if (issuer == null) {
      root.putNull("issuer");
    } else {
      root.put("issuer", issuer);
    }
    writes.forEach(root.putArray("writes")::add);
    ObjectNode entries = root.putObject("names");
    new TreeMap<>(names).forEach((name, entry) -> entries.set(name, entry.toNode()));
    return Json.bytes(root);
  }

  /**
   * Reads the control node at {@code path}.
   *
   * @throws dev.fenceline.spi.StoreException if it cannot be read: never taken as an empty state
   */
  static ControlNode parse(byte[] data, String path) {
    JsonNode root = Json.root(data, "control node", path);
    try {
      Epoch epoch = Epoch.of(Json.longField(root, "epoch"));
      String issuer = Json.nullableString(root, "issuer");
      if (issuer != null) {
        FencingToken.validateIssuer(issuer);
      }
      List<String> writes = new ArrayList<>();
      JsonNode writesNode = Json.field(root, "writes");
      if (!writesNode.isArray()) {
        throw new IllegalArgumentException("field \"writes\" is not an array");
      }
      for (JsonNode write : writesNode) {
        if (!write.isString()) {
          throw new IllegalArgumentException("field \"writes\" holds a value that is not text");
        }
        writes.add(write.stringValue());
      }
      JsonNode namesNode = Json.field(root, "names");
      if (!namesNode.isObject()) {
        throw new IllegalArgumentException("field \"names\" is not an object");
      }
      Map<String, Entry> names = new TreeMap<>();
      for (Map.Entry<String, JsonNode> named : namesNode.properties()) {
        names.put(Destination.validateName(named.getKey()), Entry.fromNode(named.getValue()));
      }
      return new ControlNode(epoch, issuer, writes, names);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw Json.unreadable("control node", path, e.getMessage(), e);
    }
  }

  /**
   * One applied pointer swap of one destination name: the pointer version and the operation's
   * receipt.
   *
   * @param version the pointer version, from 1
   * @param pointer the pointer set by the swap
   * @param epoch the epoch it was applied under
   * @param operation the operation
   * @param fingerprint the request's fingerprint
   * @param recordedAt when it was recorded (the writer's clock; for diagnostics)
   * @param attempt the nonce of the transaction that applied it
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

    Receipt receipt(String name, ResourceId resource) {
      return new Receipt(name, resource, operation, epoch, recordedAt, pointer.receiptAttributes());
    }

    PointerState state(ResourceId resource) {
      return new PointerState(resource, pointer, epoch, operation, version);
    }

    /** The immutable node of this entry: it names its resource and destination. */
    byte[] toStoredJson(String name, ResourceId resource) {
      ObjectNode root = Json.object();
      root.put("resource", resource.value());
      root.put("name", name);
      root.set("entry", toNode());
      return Json.bytes(root);
    }

    /**
     * Reads an immutable entry node of {@code name} and {@code resource} at {@code path}.
     *
     * @throws dev.fenceline.spi.StoreException if it cannot be read or belongs elsewhere
     */
    static Entry parseStored(byte[] data, String path, String name, ResourceId resource) {
      JsonNode root = Json.root(data, "pointer node", path);
      try {
        String storedResource = Json.stringField(root, "resource");
        String storedName = Json.stringField(root, "name");
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
        return fromNode(Json.field(root, "entry"));
      } catch (IllegalArgumentException | NullPointerException e) {
        throw Json.unreadable("pointer node", path, e.getMessage(), e);
      }
    }

    private ObjectNode toNode() {
      ObjectNode node = Json.MAPPER.createObjectNode();
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
      JsonNode attributesNode = Json.field(node, "attributes");
      if (!attributesNode.isObject()) {
        throw new IllegalArgumentException("field \"attributes\" is not an object");
      }
      Map<String, String> attributes = new TreeMap<>();
      for (Map.Entry<String, JsonNode> attribute : attributesNode.properties()) {
        attributes.put(attribute.getKey(), Json.stringField(attributesNode, attribute.getKey()));
      }
      Instant recordedAt;
      try {
        recordedAt = Instant.parse(Json.stringField(node, "recordedAt"));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("field \"recordedAt\" is not an instant", e);
      }
      return new Entry(
          Json.longField(node, "version"),
          new Pointer(Json.stringField(node, "target"), attributes),
          Epoch.of(Json.longField(node, "epoch")),
          OperationId.of(Json.stringField(node, "operation")),
          new RequestFingerprint(Json.stringField(node, "fingerprint")),
          recordedAt,
          Json.stringField(node, "attempt"));
    }
  }
}
