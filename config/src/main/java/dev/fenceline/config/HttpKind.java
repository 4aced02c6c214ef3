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

import dev.fenceline.http.HttpApiDestination;
import dev.fenceline.http.HttpDestinationKeys;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.StoreRole;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code type: http}: an external API, one call per operation, fenced at the intent ({@link
 * HttpApiDestination}). Its keys are the http module's ({@link HttpDestinationKeys}); each is
 * applied to the destination's builder on its own, so a value the builder refuses is placed at its
 * key. The bearer token is read from its environment variable when the destination is first used,
 * so that a file whose other destinations need no token loads where it is unset.
 */
final class HttpKind implements DestinationKind {

  @Override
  public String name() {
    return "http";
  }

  @Override
  public String summary() {
    return "an external API called with idempotency keys, fenced at the intent";
  }

  @Override
  public List<ConfigKey> keys() {
    return HttpDestinationKeys.KEYS;
  }

  @Override
  public List<String> secretVariableKeys() {
    return List.of("bearer-token-env");
  }

  @Override
  public void check(DestinationKinds.Entry entry, KindContext context) {
    Section section = entry.section();
    HttpDestinationConfig http = HttpDestinationConfig.from(entry.settings());
    String base = entry.values().get("base-uri");
    if (http.baseUri().getRawUserInfo() != null) {
      throw section.valueError(
          "base-uri",
          "\""
              + base.replace(http.baseUri().getRawUserInfo() + "@", Secrets.MASK + "@")
              + "\" carries credentials (user information before the host)",
          "remove them from the URL and give the API's token with bearer-token-env: VARIABLE");
    }
    if (entry.values().keySet().stream().anyMatch(key -> key.startsWith("lookup."))
        && http.lookup().isEmpty()) {
      section.section("lookup").orElseThrow().requiredString("path", "/payments/by-key/{key}");
    }
    http.intentStore().ifPresent(store -> context.stores().require(section, "intent-store", store));
    String intentStore = http.intentStore().orElse(context.issuerStore());
    if (!context.stores().offers(intentStore, StoreRole.INTENT_STORE)) {
      throw section.keyError(
          "intent-store",
          "store " + context.describe(intentStore) + " offers no intent store",
          "set intent-store: to a store of a type that records intents: "
              + context.types(StoreRole.INTENT_STORE));
    }
    try {
      // Every check of the destination's builder, without building it (nothing connects), with
      // a stand-in for an unset token (reported when the destination is first used).
      configure(
          HttpApiDestination.builder().name(entry.name()), entry, withStandInToken(entry, context));
    } catch (ConfigurationException e) {
      throw DeclaredKeys.refusal(section, e, "the http destination refused it");
    }
    http.requireKeyRetention(section);
    http.requireRequestPath(section);
    checkTokenCharacters(entry, http, context);
    http.requireResendRule(section);
  }

  private static void checkTokenCharacters(
      DestinationKinds.Entry entry, HttpDestinationConfig http, KindContext context) {
    http.bearerTokenEnv()
        .map(context.environment())
        .filter(token -> token.chars().anyMatch(c -> c < 0x21 || c > 0x7e))
        .filter(token -> !token.isBlank())
        .ifPresent(
            token -> {
              throw entry
                  .section()
                  .valueError(
                      "bearer-token-env",
                      "environment variable "
                          + http.bearerTokenEnv().get()
                          + " holds whitespace, control or non-ASCII characters, which cannot"
                          + " be sent in an Authorization header",
                      "check how the variable is set, e.g. a trailing newline read from a"
                          + " file; the value is not shown");
            });
  }

  /**
   * Applies the settings to {@code builder}, each on its own: a value the builder refuses is an
   * error about its key.
   */
  private static HttpApiDestination.Builder configure(
      HttpApiDestination.Builder builder,
      DestinationKinds.Entry entry,
      Function<String, String> environment) {
    HttpDestinationConfig http = HttpDestinationConfig.from(entry.settings());
    set("base-uri", () -> builder.baseUri(http.baseUri()));
    builder.environment(environment);
    String header = http.idempotencyKeyHeader();
    set("idempotency-key-header", () -> builder.idempotencyKeyHeader(header));
    set("attempt-time-limit", () -> builder.attemptTimeLimit(http.attemptTimeLimit()));
    set("max-attempts", () -> builder.maxAttempts(http.maxAttempts()));
    HttpDestinationConfig.Backoff backoff = http.backoff();
    set(
        "backoff.max",
        () -> builder.backoff(backoff.initial(), backoff.multiplier(), backoff.max()));
    builder
        .keysHonoured(http.keysHonoured())
        .resendInDoubtWithoutLookup(http.resendInDoubtWithoutLookup());
    http.bearerTokenEnv()
        .ifPresent(variable -> set("bearer-token-env", () -> builder.bearerTokenFromEnv(variable)));
    http.lookup()
        .ifPresent(
            lookup ->
                set(
                    "lookup.path",
                    () ->
                        builder.lookup(
                            lookup.path(),
                            lookup.recordPointer().orElse(null),
                            lookup.keyPointer().orElse(null))));
    http.keyRetention()
        .ifPresent(retention -> set("key-retention", () -> builder.keyRetention(retention)));
    http.receiptFields()
        .forEach(
            (field, pointer) -> set("receipt-fields", () -> builder.receiptField(field, pointer)));
    return builder;
  }

  /**
   * Runs one setting of the builder; a refusal that names no key (IllegalArgumentException, or a
   * ConfigurationException without one) becomes one about {@code key}, with the builder's message.
   */
  private static void set(String key, Supplier<?> setting) {
    try {
      setting.get();
    } catch (ConfigurationException e) {
      throw e.key().isPresent() ? e : new ConfigurationException(key, e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(key, e.getMessage(), e);
    }
  }

  @Override
  public List<String> stores(DestinationKinds.Entry entry, KindContext context) {
    String intentStore = entry.settings().optional("intent-store").orElse(context.issuerStore());
    return intentStore.equals(context.issuerStore())
        ? List.of(intentStore)
        : List.of(intentStore, context.issuerStore());
  }

  @Override
  public List<String> notUsable(DestinationKinds.Entry entry, KindContext context) {
    return missingToken(entry, context)
        .map(
            variable ->
                List.of(
                    "environment variable "
                        + variable
                        + " (bearer-token-env) is not set; publish to "
                        + entry.name()
                        + " fails until it is exported"))
        .orElse(List.of());
  }

  /** The variable of the bearer token, if it is unset or blank here. */
  private static Optional<String> missingToken(DestinationKinds.Entry entry, KindContext context) {
    return entry
        .settings()
        .optional("bearer-token-env")
        .filter(
            variable -> {
              String token = context.environment().apply(variable);
              return token == null || token.isBlank();
            });
  }

  /**
   * The file's environment, with a stand-in value for the bearer-token variable if that is unset or
   * blank here: for checks of the other settings, never for sending.
   */
  private static Function<String, String> withStandInToken(
      DestinationKinds.Entry entry, KindContext context) {
    Optional<String> missing = missingToken(entry, context);
    return variable ->
        missing.isPresent() && missing.get().equals(variable)
            ? "stand-in-token-for-checks"
            : context.environment().apply(variable);
  }

  @Override
  public ConfiguredDestination build(
      DestinationKinds.Entry entry, KindContext context, boolean checkOnly) {
    Section section = entry.section();
    String name = entry.name();
    HttpDestinationConfig http = HttpDestinationConfig.from(entry.settings());
    Function<String, String> environment = context.environment();
    Optional<String> missing = missingToken(entry, context);
    if (missing.isPresent() && !checkOnly) {
      throw section.valueError(
          "bearer-token-env",
          "environment variable " + missing.get() + " is not set or blank",
          "export " + missing.get() + " with the API's token before starting");
    }
    if (checkOnly) {
      // Only described, never used or kept: an unset token gets a stand-in.
      environment = withStandInToken(entry, context);
    }
    String intentStoreName = http.intentStore().orElse(context.issuerStore());
    IntentStore intents =
        context
            .adapter(intentStoreName)
            .intentStore(name)
            .orElseThrow(
                () ->
                    section.keyError(
                        "intent-store",
                        "store " + context.describe(intentStoreName) + " offers no intent store",
                        "set intent-store: to a store of type "
                            + context.example(StoreRole.INTENT_STORE)));
    HttpApiDestination destination;
    try {
      destination =
          configure(
                  HttpApiDestination.builder().name(name).intentStore(intents), entry, environment)
              .build();
    } catch (ConfigurationException e) {
      throw DeclaredKeys.refusal(section, e, "the http destination refused it");
    } catch (IllegalArgumentException e) {
      throw DeclaredKeys.refusal(
          section,
          new ConfigurationException(e.getMessage(), e),
          "the http destination refused it");
    }
    String why =
        "the API at "
            + Secrets.redactUrls(http.baseUri().toString())
            + " cannot compare epochs: each call's intent is recorded with an epoch check in "
            + context.describe(intentStoreName)
            + " before any request, and every attempt carries one idempotency key";
    return new ConfiguredDestination(
        name,
        "http",
        destination,
        Strategy.FENCED_AT_INTENT,
        context.scrub(why),
        context.fenceline(),
        http.request(),
        Optional.of(context.scrub(destination.describeResendRule())));
  }
}
