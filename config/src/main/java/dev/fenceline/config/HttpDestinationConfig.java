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

import dev.fenceline.http.ResilienceSettings;
import dev.fenceline.spi.AdapterConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The settings of a destination of {@code type: http}: one external API call per operation, fenced
 * at the intent ({@code dev.fenceline.http.HttpApiDestination}, guarantee {@code FENCED_AT_INTENT};
 * publishing to it needs {@code allow-fenced-at-intent: true}). Its keys are declared once, with
 * the builder's defaults, in {@code dev.fenceline.http.HttpDestinationKeys}, and listed in {@code
 * docs/configuration-reference.md}. The checks here are the ones that need the file: they name the
 * keys as written and place the mistake at its value.
 *
 * @param baseUri the API's base URL
 * @param intentStore the store that records intents, if not the issuer's
 * @param bearerTokenEnv the environment variable holding the bearer token, if any
 * @param idempotencyKeyHeader the header carrying the idempotency key
 * @param attemptTimeLimit the time limit of one attempt
 * @param maxAttempts attempts per request, 1 to 20
 * @param backoff the backoff between attempts
 * @param lookup the result lookup, if any
 * @param keyRetention how long the API keeps keys, if it forgets them
 * @param keysHonoured whether the API replays the stored result for a repeated key
 * @param resendInDoubtWithoutLookup whether an operation in doubt is sent again without a lookup
 * @param receiptFields receipt attribute to JSON pointer of the answer
 * @param request the request a published file is sent with
 */
public record HttpDestinationConfig(
    URI baseUri,
    Optional<String> intentStore,
    Optional<String> bearerTokenEnv,
    String idempotencyKeyHeader,
    Duration attemptTimeLimit,
    int maxAttempts,
    Backoff backoff,
    Optional<Lookup> lookup,
    Optional<Duration> keyRetention,
    boolean keysHonoured,
    boolean resendInDoubtWithoutLookup,
    Map<String, String> receiptFields,
    RequestTemplate request) {

  /** Validates the settings. */
  public HttpDestinationConfig {
    requireNonNull(baseUri, "baseUri is null");
    requireNonNull(intentStore, "intentStore is null");
    requireNonNull(bearerTokenEnv, "bearerTokenEnv is null");
    requireNonNull(idempotencyKeyHeader, "idempotencyKeyHeader is null");
    requireNonNull(attemptTimeLimit, "attemptTimeLimit is null");
    requireNonNull(backoff, "backoff is null");
    requireNonNull(lookup, "lookup is null");
    requireNonNull(keyRetention, "keyRetention is null");
    receiptFields = Map.copyOf(requireNonNull(receiptFields, "receiptFields is null"));
    requireNonNull(request, "request is null");
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw new IllegalArgumentException("Cannot use " + maxAttempts + " attempts: 1 to 20");
    }
  }

  /**
   * Exponential backoff between attempts.
   *
   * @param initial the first wait
   * @param multiplier the growth per retry, at least 1
   * @param max the longest wait
   */
  public record Backoff(Duration initial, double multiplier, Duration max) {
    /** The defaults, the HTTP destinations' own ({@link ResilienceSettings}): 500 ms, 2.0, 2 s. */
    public static final Backoff DEFAULT =
        new Backoff(
            ResilienceSettings.DEFAULT_INITIAL_BACKOFF,
            ResilienceSettings.DEFAULT_BACKOFF_MULTIPLIER,
            ResilienceSettings.DEFAULT_MAX_BACKOFF);

    /** Validates the settings. */
    public Backoff {
      requireNonNull(initial, "initial is null");
      requireNonNull(max, "max is null");
      if (multiplier < 1) {
        throw new IllegalArgumentException(
            "Cannot use backoff multiplier " + multiplier + ": at least 1");
      }
    }
  }

  /**
   * The result lookup request.
   *
   * @param path the path template under the base URI, with {@code {key}}
   * @param recordPointer JSON pointer selecting the record in a list answer
   * @param keyPointer JSON pointer of the idempotency key inside the record
   */
  public record Lookup(String path, Optional<String> recordPointer, Optional<String> keyPointer) {
    /** Validates the settings. */
    public Lookup {
      requireNonNull(path, "path is null");
      requireNonNull(recordPointer, "recordPointer is null");
      requireNonNull(keyPointer, "keyPointer is null");
    }
  }

  /**
   * The request a published file is sent with, its body streamed from the file.
   *
   * @param method {@code POST}, {@code PUT} or {@code PATCH}
   * @param path the path under the base URI; {@code {resource}} and {@code {operation}} are
   *     replaced, URL-encoded
   * @param contentType the body's content type
   */
  public record RequestTemplate(String method, String path, String contentType) {
    /** Validates the settings. */
    public RequestTemplate {
      requireNonNull(method, "method is null");
      requireNonNull(path, "path is null");
      requireNonNull(contentType, "contentType is null");
      if (!Set.of("POST", "PUT", "PATCH").contains(method)) {
        throw new IllegalArgumentException(
            "Cannot send files with " + method + ": POST, PUT or PATCH");
      }
    }
  }

  /**
   * Refuses settings that would re-send a request that may have landed without asking the API,
   * unless {@code keys-honoured: true} says that the API replays a repeated key: without a {@code
   * lookup}, {@code max-attempts} above 1 re-sends after a lost answer, and {@code
   * resend-in-doubt-without-lookup: true} re-sends an operation left in doubt. (The same rule as
   * {@code HttpApiDestination.Builder#build}, checked here at load time for the file's line.)
   */
  void requireResendRule(Section section) {
    if (lookup.isPresent() || keysHonoured) {
      return;
    }
    if (maxAttempts > 1) {
      throw section.keyError(
          "keys-honoured",
          "no lookup is configured and max-attempts "
              + maxAttempts
              + (section.has("max-attempts") ? "" : " (the default)")
              + " re-sends a request whose answer was lost without asking the API, relying on it"
              + " to honour the idempotency key in header "
              + idempotencyKeyHeader,
          "add lookup: {path: '/payments?idempotency_key={key}', record-pointer: /data/0,"
              + " key-pointer: /idempotency_key} so that every re-send asks first; set"
              + " keys-honoured: true if the API replays the stored result for a repeated key; or"
              + " max-attempts: 1 to send once");
    }
    if (resendInDoubtWithoutLookup) {
      throw section.valueError(
          "resend-in-doubt-without-lookup",
          "without a lookup it re-sends an operation that may have landed, relying on the API to"
              + " honour the idempotency key in header "
              + idempotencyKeyHeader,
          "set keys-honoured: true if the API replays the stored result for a repeated key, or"
              + " add a lookup");
    }
  }

  /**
   * Refuses a {@code key-retention} that one write's own attempts could outlast: max attempts ×
   * (attempt time limit + max backoff), the rule of {@code HttpApiDestination.Builder#build},
   * checked here at load time for the file's line.
   */
  void requireKeyRetention(Section section) {
    if (keyRetention.isEmpty()) {
      return;
    }
    Duration ownRetries = attemptTimeLimit.plus(backoff.max()).multipliedBy(maxAttempts);
    if (ownRetries.compareTo(keyRetention.get()) >= 0) {
      throw section.valueError(
          "key-retention",
          "key-retention "
              + Durations.format(keyRetention.get())
              + " is not longer than one write's own attempts can take, "
              + Durations.format(ownRetries)
              + " (max-attempts "
              + maxAttempts
              + " × (attempt-time-limit "
              + Durations.format(attemptTimeLimit)
              + " + backoff max "
              + Durations.format(backoff.max())
              + ")), so the API could forget the key while the write still retries",
          "set key-retention to how long the API really keeps keys, or lower max-attempts,"
              + " attempt-time-limit or backoff.max well below it");
    }
  }

  /**
   * Refuses a {@code request.path} that cannot be sent: only {@code {resource}} and {@code
   * {operation}} are replaced, and the path must be one {@code ApiRequest} takes (relative to the
   * base URI, starting with /), checked at load time rather than at the first publish.
   */
  void requireRequestPath(Section section) {
    Section template = section.section("request").orElseThrow();
    java.util.regex.Matcher placeholder =
        java.util.regex.Pattern.compile("\\{([^}]*)}").matcher(request.path());
    while (placeholder.find()) {
      if (!Set.of("resource", "operation").contains(placeholder.group(1))) {
        throw template.valueError(
            "path",
            "unknown placeholder {" + placeholder.group(1) + "} in the request path",
            "use {resource} or {operation}, e.g. /reports/{resource}");
      }
    }
    try {
      dev.fenceline.http.ApiRequest.of(
          request.method(),
          "/",
          request.contentType(),
          Map.of(),
          new dev.fenceline.http.ApiRequest.BytesBody(new byte[0]));
    } catch (IllegalArgumentException | dev.fenceline.spi.ConfigurationException e) {
      throw template.valueError(
          "content-type",
          "the request cannot be sent: " + e.getMessage(),
          "give a content type such as application/json");
    }
    String sample = request.path().replace("{resource}", "r").replace("{operation}", "o");
    try {
      dev.fenceline.http.ApiRequest.of(
          request.method(),
          sample,
          request.contentType(),
          Map.of(),
          new dev.fenceline.http.ApiRequest.BytesBody(new byte[0]));
    } catch (IllegalArgumentException | dev.fenceline.spi.ConfigurationException e) {
      throw template.valueError(
          "path",
          "the request cannot be sent: " + e.getMessage(),
          "give a path relative to the base URI, starting with /, e.g. /reports/{resource}");
    }
  }

  /** The settings read from a section checked against {@code HttpDestinationKeys}. */
  static HttpDestinationConfig from(AdapterConfig settings) {
    Optional<Lookup> lookup =
        settings
            .optional("lookup.path")
            .map(
                path ->
                    new Lookup(
                        path,
                        settings.optional("lookup.record-pointer"),
                        settings.optional("lookup.key-pointer")));
    return new HttpDestinationConfig(
        settings.uri("base-uri").orElseThrow(),
        settings.optional("intent-store"),
        settings.optional("bearer-token-env"),
        settings.optional("idempotency-key-header").orElseThrow(),
        settings.duration("attempt-time-limit").orElseThrow(),
        Math.toIntExact(settings.number("max-attempts").orElseThrow()),
        new Backoff(
            settings.duration("backoff.initial").orElseThrow(),
            settings.decimal("backoff.multiplier").orElseThrow(),
            settings.duration("backoff.max").orElseThrow()),
        lookup,
        settings.duration("key-retention"),
        settings.bool("keys-honoured").orElseThrow(),
        settings.bool("resend-in-doubt-without-lookup").orElseThrow(),
        settings.map("receipt-fields"),
        new RequestTemplate(
            settings.optional("request.method").orElseThrow(),
            settings.required("request.path"),
            settings.optional("request.content-type").orElseThrow()));
  }
}
