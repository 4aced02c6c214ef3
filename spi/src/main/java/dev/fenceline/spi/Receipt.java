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

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a destination recorded for an applied operation. The destination stores the receipt in the
 * same atomic step as the change and returns exactly this receipt again for every retry of the same
 * operation, so a lost response never turns into a second business operation (R4).
 *
 * @param destination the name of the destination that recorded it ({@link Destination#name()}):
 *     operation IDs are scoped per destination, so the same business operation applied to two
 *     destinations has two receipts
 * @param resource the resource the operation changed
 * @param operation the operation
 * @param epoch the epoch the change was applied under (at a destination that records intents, the
 *     epoch of the attempt that sent the request; see {@link IntentStore#complete(FencingToken,
 *     OperationId, Epoch, Map)})
 * @param recordedAt when the destination recorded it, by the destination's clock (informational
 *     only: never evidence of ownership)
 * @param attributes destination-specific facts about the change, such as a row count, a key, a size
 *     or a checksum; keys are 1 to 64 characters from {@code [a-z0-9.-]}, starting with a letter or
 *     digit; values are storable text (well-formed UTF-16 without NUL, see {@link
 *     StorableText#require})
 */
public record Receipt(
    String destination,
    ResourceId resource,
    OperationId operation,
    Epoch epoch,
    Instant recordedAt,
    Map<String, String> attributes) {

  private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{0,63}");

  /**
   * Validates the receipt and makes an immutable, sorted copy of the attributes.
   *
   * @param destination the destination's name
   * @param resource the resource
   * @param operation the operation ID
   * @param epoch the epoch
   * @param recordedAt when it was recorded, by the store's clock
   * @param attributes the attributes
   * @throws IllegalArgumentException if an attribute name breaks the rule above or a value is not
   *     storable text
   * @throws NullPointerException if a component, an attribute name or a value is null
   */
  public Receipt {
    Destination.validateName(destination);
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(recordedAt, "recordedAt is null");
    requireNonNull(attributes, "attributes is null");
    TreeMap<String, String> copy = new TreeMap<>();
    attributes.forEach(
        (name, value) -> {
          requireNonNull(name, "attribute name is null");
          if (!ATTRIBUTE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                "Cannot record receipt attribute "
                    + Text.quoteForMessage(name)
                    + " for "
                    + resource
                    + "/"
                    + operation
                    + ": names are 1 to 64 characters from [a-z0-9.-] (e.g. row-count)");
          }
          StorableText.require("value of receipt attribute " + name, value);
          copy.put(name, value);
        });
    attributes = Collections.unmodifiableSortedMap(copy);
  }

  /**
   * {@return the attribute {@code name}, if present}
   *
   * @param name the name
   */
  public Optional<String> attribute(String name) {
    return Optional.ofNullable(attributes.get(name));
  }
}
