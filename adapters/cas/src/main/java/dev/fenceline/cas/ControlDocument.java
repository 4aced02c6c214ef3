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
package dev.fenceline.cas;

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
 * The control document of one resource in a pointer store on a compare-and-swap store (an S3 object
 * replaced with {@code If-Match}, a ZooKeeper node replaced at its version): the registered epoch,
 * the issuer it is bound to, and per destination name the current pointer entry (older entries live
 * in immutable documents, so the control document stays small). Replaced as a whole, never changed
 * in place. For adapter implementations.
 *
 * <p>{@code writes} holds the nonces of the last {@value #RECENT_WRITES} requests that wrote the
 * document, newest first: a writer whose answer was lost and whose client re-sent the request
 * (refused, since the first one landed) finds out whether it landed; and no two versions have the
 * same bytes, so a store that compares content digests (S3 ETags) sees no ABA.
 *
 * @param epoch the registered epoch, {@link Epoch#NONE} if none
 * @param issuer the issuer the resource is bound to, or null until a token binds it
 * @param writes nonces of the latest writes, newest first, at most {@value #RECENT_WRITES}
 * @param names per destination name, its current entry
 */
public record ControlDocument(
    Epoch epoch, String issuer, List<String> writes, Map<String, Entry> names) {

  /** How many write nonces the document keeps. */
  public static final int RECENT_WRITES = 8;

  /** The state of a resource that has no control document. */
  public static final ControlDocument EMPTY =
      new ControlDocument(Epoch.NONE, null, List.of(), Map.of());

  /** Copies the lists. */
  public ControlDocument {
    requireNonNull(epoch, "epoch is null");
    writes = List.copyOf(writes);
    names = Map.copyOf(names);
  }

  /** The current entry of destination {@code name}, or null if it never applied anything. */
  public Entry entry(String name) {
    return names.get(name);
  }

  /** This state with {@code newer} registered for {@code boundIssuer}, written by {@code nonce}. */
  public ControlDocument registered(Epoch newer, String boundIssuer, String nonce) {
    return new ControlDocument(newer, boundIssuer, withWrite(nonce), names);
  }

  /** This state with {@code entry} as {@code name}'s current entry, written by {@code nonce}. */
  public ControlDocument applied(
      String name, Entry entry, Epoch newer, String boundIssuer, String nonce) {
    Map<String, Entry> next = new TreeMap<>(names);
    next.put(name, entry);
    return new ControlDocument(newer, boundIssuer, withWrite(nonce), next);
  }

  private List<String> withWrite(String nonce) {
    List<String> next = new ArrayList<>(RECENT_WRITES);
    next.add(requireNonNull(nonce, "nonce is null"));
    for (int i = 0; i < writes.size() && next.size() < RECENT_WRITES; i++) {
      next.add(writes.get(i));
    }
    return next;
  }

  /** The document's JSON. */
  public byte[] toJson() {
    ObjectNode root = StrictJson.object();
    root.put("epoch", epoch.value());
    if (issuer == null) {
      root.putNull("issuer");
    } else {
      root.put("issuer", issuer);
    }
    writes.forEach(root.putArray("writes")::add);
    ObjectNode entries = root.putObject("names");
    new TreeMap<>(names).forEach((name, entry) -> entries.set(name, entry.toNode()));
    return StrictJson.bytes(root);
  }

  /**
   * Reads a control document.
   *
   * @param where what and where it is, for the error
   * @throws dev.fenceline.spi.StoreException if it cannot be read: never taken as an empty state
   */
  public static ControlDocument parse(byte[] data, StrictJson.Where where) {
    JsonNode root = StrictJson.root(data, where);
    try {
      Epoch epoch = Epoch.of(StrictJson.longField(root, "epoch"));
      String issuer = StrictJson.nullableString(root, "issuer");
      if (issuer != null) {
        FencingToken.validateIssuer(issuer);
      }
      List<String> writes = new ArrayList<>();
      JsonNode writesNode = StrictJson.field(root, "writes");
      if (!writesNode.isArray()) {
        throw new IllegalArgumentException("field \"writes\" is not an array");
      }
      for (JsonNode write : writesNode) {
        if (!write.isString()) {
          throw new IllegalArgumentException("field \"writes\" holds a value that is not text");
        }
        writes.add(write.stringValue());
      }
      JsonNode namesNode = StrictJson.field(root, "names");
      if (!namesNode.isObject()) {
        throw new IllegalArgumentException("field \"names\" is not an object");
      }
      Map<String, Entry> names = new TreeMap<>();
      for (Map.Entry<String, JsonNode> named : namesNode.properties()) {
        names.put(Destination.validateName(named.getKey()), Entry.fromNode(named.getValue()));
      }
      return new ControlDocument(epoch, issuer, writes, names);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw StrictJson.unreadable(where, e.getMessage(), e);
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
   * @param recordedAt when it was recorded (the writer's clock)
   * @param attempt the nonce of the transaction that applied it
   */
  public record Entry(
      long version,
      Pointer pointer,
      Epoch epoch,
      OperationId operation,
      RequestFingerprint fingerprint,
      Instant recordedAt,
      String attempt) {

    /** Checks the values. */
    public Entry {
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
    public Receipt receipt(String name, ResourceId resource) {
      return new Receipt(name, resource, operation, epoch, recordedAt, pointer.receiptAttributes());
    }

    /** The pointer state of this entry. */
    public PointerState state(ResourceId resource) {
      return new PointerState(resource, pointer, epoch, operation, version);
    }

    /**
     * The immutable document of this entry (kept by operation and by version): it names its
     * resource and destination, so a misplaced document is noticed.
     */
    public byte[] toStoredJson(String name, ResourceId resource) {
      ObjectNode root = StrictJson.object();
      root.put("resource", resource.value());
      root.put("name", name);
      root.set("entry", toNode());
      return StrictJson.bytes(root);
    }

    /**
     * Reads an immutable entry document of {@code name} and {@code resource}.
     *
     * @param where what and where it is, for the error
     * @throws dev.fenceline.spi.StoreException if it cannot be read or belongs elsewhere
     */
    public static Entry parseStored(
        byte[] data, StrictJson.Where where, String name, ResourceId resource) {
      JsonNode root = StrictJson.root(data, where);
      try {
        String storedResource = StrictJson.stringField(root, "resource");
        String storedName = StrictJson.stringField(root, "name");
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
        return fromNode(StrictJson.field(root, "entry"));
      } catch (IllegalArgumentException | NullPointerException e) {
        throw StrictJson.unreadable(where, e.getMessage(), e);
      }
    }

    private ObjectNode toNode() {
      ObjectNode node = StrictJson.MAPPER.createObjectNode();
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
      JsonNode attributesNode = StrictJson.field(node, "attributes");
      if (!attributesNode.isObject()) {
        throw new IllegalArgumentException("field \"attributes\" is not an object");
      }
      Map<String, String> attributes = new TreeMap<>();
      for (Map.Entry<String, JsonNode> attribute : attributesNode.properties()) {
        attributes.put(
            attribute.getKey(), StrictJson.stringField(attributesNode, attribute.getKey()));
      }
      Instant recordedAt;
      try {
        recordedAt = Instant.parse(StrictJson.stringField(node, "recordedAt"));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("field \"recordedAt\" is not an instant", e);
      }
      return new Entry(
          StrictJson.longField(node, "version"),
          new Pointer(StrictJson.stringField(node, "target"), attributes),
          Epoch.of(StrictJson.longField(node, "epoch")),
          OperationId.of(StrictJson.stringField(node, "operation")),
          new RequestFingerprint(StrictJson.stringField(node, "fingerprint")),
          recordedAt,
          StrictJson.stringField(node, "attempt"));
    }
  }
}
