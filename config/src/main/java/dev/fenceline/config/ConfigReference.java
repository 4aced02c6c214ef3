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
package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.StoreRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The configuration reference, generated from the keys that adapters ({@link
 * AdapterFactory#configKeys()}) and destination kinds declare: for each, every key with its type,
 * default ("required", or "optional" for a key that is unset unless given), whether it is secret,
 * and what it does, in Markdown. The project's {@code docs/configuration-reference.md} is this text
 * for the built-in adapters, and a test keeps the two equal, so the reference cannot drift from the
 * code.
 *
 * <pre>{@code
 * String markdown = ConfigReference.markdown(AdapterRegistry.load());
 * }</pre>
 */
public final class ConfigReference {

  private static final Map<StoreRole, String> ROLES =
      Map.of(
          StoreRole.LEASE_ISSUER, "lease issuer (`issuer:`)",
          StoreRole.POINTER_STORE, "pointer stores (`pointer-store:` of a staged destination)",
          StoreRole.INTENT_STORE, "intent stores (`intent-store:` of an http destination)",
          StoreRole.BLOB_STORE, "blob store (`store:` of a staged destination)",
          StoreRole.DESTINATION, "fenced destinations (`store:` of a fenced destination)");

  private ConfigReference() {}

  /** The reference for every adapter of {@code registry} and every destination kind. */
  public static String markdown(AdapterRegistry registry) {
    requireNonNull(registry, "registry is null");
    return markdown(registry.names().stream().map(registry::factory).toList());
  }

  /** The reference for {@code adapters} (in name order) and every destination kind. */
  public static String markdown(List<AdapterFactory> adapters) {
    requireNonNull(adapters, "adapters is null");
    StringBuilder text = new StringBuilder();
    text.append("# Configuration reference\n\n")
        .append(
            "Generated from the keys each adapter and destination kind declares (`ConfigKey`);"
                + " do not edit it by hand. A configuration file has `stores:` (each with `type:`"
                + " naming an adapter below), `issuer:` (a store that issues leases), `lease:`"
                + " (`ttl`, `renew-every`, `holder`), the `allow-unguarded`,"
                + " `allow-idempotent-only` and `allow-fenced-at-intent` flags, and"
                + " `destinations:` (each with `type:` naming a kind below). A dotted key is"
                + " written as a mapping: `backoff.max` is `max:` under `backoff:`. Durations are"
                + " written `500ms`, `30s`, `2m`, `1h`, `7d` or ISO-8601; sizes `16MiB`. A secret"
                + " value is never shown: it is masked in every message.\n\n")
        .append("## Stores\n");
    adapters.stream()
        .sorted(Comparator.comparing(AdapterFactory::name))
        .forEach(adapter -> adapter(text, adapter));
    text.append("\n## Destinations\n");
    for (DestinationKind kind : DestinationKinds.all()) {
      destination(text, kind);
    }
    return text.toString();
  }

  /**
   * The part of the reference for one store type or destination kind: its {@code ### `type: x`}
   * heading, what it offers and its keys table, exactly as {@link #markdown(List)} writes it. A
   * module's docs page embeds it, and a test keeps the page equal to it.
   *
   * @param adapters the adapters whose names are store types
   * @param type a store type ({@code jdbc}) or a destination kind ({@code staged})
   * @throws IllegalArgumentException if {@code type} is neither, naming the known ones
   */
  public static String section(List<AdapterFactory> adapters, String type) {
    requireNonNull(adapters, "adapters is null");
    requireNonNull(type, "type is null");
    StringBuilder text = new StringBuilder();
    adapters.stream()
        .filter(adapter -> adapter.name().equals(type))
        .findFirst()
        .ifPresentOrElse(
            adapter -> adapter(text, adapter),
            () ->
                destination(
                    text,
                    DestinationKinds.find(type)
                        .orElseThrow(
                            () ->
                                new IllegalArgumentException(
                                    "\""
                                        + type
                                        + "\" is neither a store type ("
                                        + adapters.stream()
                                            .map(AdapterFactory::name)
                                            .sorted()
                                            .collect(Collectors.joining(", "))
                                        + ") nor a destination kind ("
                                        + DestinationKinds.all().stream()
                                            .map(DestinationKind::name)
                                            .collect(Collectors.joining(", "))
                                        + ")"))));
    return text.substring(1); // without the blank line that separates sections
  }

  private static void destination(StringBuilder text, DestinationKind kind) {
    text.append("\n### `type: ").append(kind.name()).append("`\n\n");
    text.append(capitalized(kind.summary())).append(".\n\n");
    table(text, kind.keys());
  }

  private static void adapter(StringBuilder text, AdapterFactory adapter) {
    text.append("\n### `type: ").append(adapter.name()).append("`\n\n");
    List<String> roles = new ArrayList<>();
    for (StoreRole role : StoreRole.values()) {
      if (adapter.roles().contains(role)) {
        roles.add(ROLES.get(role));
      }
    }
    text.append(
        roles.isEmpty()
            ? "Offers: not declared (found out when the store opens).\n\n"
            : "Offers: " + String.join("; ", roles) + ".\n\n");
    adapter
        .pointerVersionsKey()
        .ifPresent(
            key ->
                text.append("Keeps as many publish-pointer versions as `")
                    .append(key)
                    .append("` says: at least the `keep-versions` of every staged destination")
                    .append(" publishing through it.\n\n"));
    if (adapter.configKeys().isEmpty()) {
      text.append(
          "Keys: not declared; every key is passed to the adapter, which checks it when the store"
              + " opens, and every value is treated as secret.\n");
    } else {
      table(text, adapter.configKeys());
    }
  }

  private static void table(StringBuilder text, List<ConfigKey> keys) {
    text.append("| key | type | default | description |\n|---|---|---|---|\n");
    for (ConfigKey key : keys) {
      text.append("| `")
          .append(key.name())
          .append("` | ")
          .append(cell(type(key)))
          .append(" | ")
          .append(
              key.required()
                  ? "required"
                  : key.defaultValue().map(v -> "`" + v + "`").orElse("optional"))
          .append(" | ")
          .append(cell(key.description()))
          .append(" |\n");
    }
  }

  /** The key's type as a reader writes it: {@code integer, 1 to 20}, {@code duration, secret}. */
  private static String type(ConfigKey key) {
    String type =
        switch (key.type()) {
          case URI -> "URL";
          case CHOICE -> "one of " + key.choices().stream().collect(Collectors.joining(", "));
          case MAP -> "mapping of names to values";
          default -> key.type().name().toLowerCase(java.util.Locale.ROOT);
        };
    if (key.range().isPresent()) {
      type += ", " + key.range().get();
    } else if (key.type() == ConfigKey.Type.DURATION && key.min() == 0) {
      type += ", 0 allowed";
    }
    return key.secret() ? type + ", secret" : type;
  }

  private static String cell(String value) {
    return value.replace("|", "\\|");
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
