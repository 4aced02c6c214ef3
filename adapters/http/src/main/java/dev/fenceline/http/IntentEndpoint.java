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
package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Intent;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every write of one {@link HttpApiDestination} shares: the endpoint, the intent store, the
 * lookup request and receipt fields, the key retention; and how results are recorded and refusals
 * worded: the receipt attributes of an answer or a lookup, the completion of an intent, the
 * in-doubt error. Each write is an {@link IntentWrite} over it. Immutable and thread-safe.
 */
final class IntentEndpoint {

  /** The intent mode's logger, named after the public class operators configure. */
  static final System.Logger LOG = System.getLogger(HttpApiDestination.class.getName());

  private static final int MAX_EXCERPT = 200;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final EndpointSettings settings;
  private final IntentStore intents;
  private final Optional<ApiCalls.LookupRequest> lookup;
  private final ReceiptFields fields;
  private final Clock clock;
  private final Optional<Duration> keyRetention;
  private final boolean resendInDoubtWithoutLookup;
  private final LongSupplier nanoTime;

  private final HttpApiDestination.ResendRule resendRule;

  private IntentEndpoint(Builder builder, EndpointSettings settings) {
    this.settings = settings;
    this.intents = builder.intentStore;
    this.lookup = Optional.ofNullable(builder.lookup);
    this.fields = new ReceiptFields(builder.fields);
    this.clock = builder.clock;
    this.keyRetention = Optional.ofNullable(builder.keyRetention);
    this.resendInDoubtWithoutLookup = builder.resendInDoubtWithoutLookup;
    this.nanoTime = builder.endpoint.nanoTime();
    this.resendRule = builder.resendRule();
  }

  String name() {
    return settings.name();
  }

  EndpointSettings settings() {
    return settings;
  }

  IntentStore intents() {
    return intents;
  }

  ApiCalls calls() {
    return settings.calls();
  }

  /** The lookup request, empty if none is configured. */
  Optional<ApiCalls.LookupRequest> lookup() {
    return lookup;
  }

  /** The rule re-sends go by. */
  HttpApiDestination.ResendRule resendRule() {
    return resendRule;
  }

  boolean resendInDoubtWithoutLookup() {
    return resendInDoubtWithoutLookup;
  }

  LongSupplier nanoTime() {
    return nanoTime;
  }

  /**
   * Why the API may have forgotten the key of an earlier attempt: the intent was first recorded
   * longer ago than the configured key retention (by the intent store's clock against this
   * destination's clock).
   */
  Optional<String> keyMayBeForgotten(Intent intent) {
    if (keyRetention.isEmpty()) {
      return Optional.empty();
    }
    Duration age = Duration.between(intent.recordedAt(), clock.instant());
    if (age.compareTo(keyRetention.get()) < 0) {
      return Optional.empty();
    }
    return Optional.of(
        "its first attempt was recorded at "
            + intent.recordedAt()
            + ", "
            + age.withNanos(0)
            + " ago, longer than the API keeps idempotency keys ("
            + keyRetention.get()
            + ")");
  }

  /**
   * Records the result with {@link IntentStore#complete}, as sent under {@code sentUnder} (the
   * token's epoch for this attempt's own call, an earlier attempt's for a result found by lookup).
   *
   * @throws ApiOutcomeUnknownException if the intent store failed: the API applied it
   */
  WriteOutcome record(
      FencingToken token,
      OperationId operation,
      Epoch sentUnder,
      String key,
      Map<String, String> attributes) {
    try {
      return intents.complete(token, operation, sentUnder, attributes);
    } catch (StoreException e) {
      throw new ApiOutcomeUnknownException(
          "Cannot record the result of operation "
              + operation
              + " of "
              + token.resource()
              + " at "
              + name()
              + ": the API applied it under idempotency key "
              + key
              + " but the intent store failed ("
              + e.getMessage()
              + "); retry with the same operation ID, which looks the result up and records it",
          e,
          token.resource(),
          operation,
          key);
    }
  }

  /** The receipt of an outcome {@link #record} answered. */
  static Receipt receiptOf(WriteOutcome outcome) {
    if (outcome instanceof Applied applied) {
      return applied.receipt();
    }
    if (outcome instanceof AlreadyApplied already) {
      return already.receipt();
    }
    throw new IllegalStateException("complete never answers " + outcome);
  }

  /** The receipt attributes of a 2xx answer to a send. */
  Map<String, String> responseAttributes(String key, ApiCalls.Response response) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("http-status", Integer.toString(response.status()));
    attributes.put("idempotency-key", key);
    if (response.truncated()) {
      attributes.put(
          "response-error",
          "the body is larger than " + response.body().length + " bytes; fields not read");
      return attributes;
    }
    if (response.bodyError().isPresent()) {
      attributes.put("response-error", response.bodyError().get() + "; fields not read");
      return attributes;
    }
    if (response.body().length == 0) {
      if (!fields.isEmpty()) {
        attributes.put("response-error", "the body is empty; fields not read");
      }
      return attributes;
    }
    Optional<JsonNode> document = parse(response.body());
    if (document.isEmpty()) {
      attributes.put("response-error", "the body is not JSON; fields not read");
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "API "
                  + name()
                  + " answered HTTP "
                  + response.status()
                  + " with a body that is not JSON for key "
                  + key
                  + "; recording the call as applied without receipt fields");
      return attributes;
    }
    fields.addTo(document.get(), attributes);
    return attributes;
  }

  /** Parses a response body as JSON; empty if it is not JSON. */
  private static Optional<JsonNode> parse(byte[] body) {
    try {
      JsonNode node = JSON.readTree(body);
      return Optional.ofNullable(node).filter(n -> !n.isMissingNode());
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }

  /** The receipt attributes of a record the lookup found. */
  Map<String, String> lookupAttributes(String key, ApiCalls.Found found) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("idempotency-key", key);
    attributes.put("found-by", "lookup");
    fields.addTo(found.record(), attributes);
    return attributes;
  }

  /** The error of an operation that may have landed, logged as a warning. */
  ApiOutcomeUnknownException inDoubt(
      ResourceId resource, OperationId operation, String key, String why, Throwable cause) {
    String message =
        "Cannot tell whether operation "
            + operation
            + " of "
            + resource
            + " landed at "
            + name()
            + ": "
            + why
            + " (the intent stays in doubt under idempotency key "
            + key
            + "; retry with the same operation ID to look it up and re-send under the same key"
            + " only if the API never saw it, or ask the API's operators about that key)";
    LOG.log(System.Logger.Level.WARNING, message);
    return new ApiOutcomeUnknownException(message, cause, resource, operation, key);
  }

  /** {@code ": "} and the start of the answer's body, the bearer token masked; or nothing. */
  String excerpt(ApiCalls.Response response) {
    if (response.body().length == 0) {
      return "";
    }
    String text = new String(response.body(), StandardCharsets.UTF_8);
    text = calls().redact(text);
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .limit(MAX_EXCERPT)
        .forEach(c -> out.appendCodePoint(c < 0x20 || c == 0x7f ? ' ' : c));
    if (text.codePointCount(0, text.length()) > MAX_EXCERPT) {
      out.append("...");
    }
    return ": \"" + out.toString().strip() + "\"";
  }

  /** See {@link HttpApiDestination#lookup}. */
  Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    Optional<Intent> intent = intents.lookup(resource, operation);
    if (intent.isEmpty()) {
      return Optional.empty();
    }
    if (intent.get().completed()) {
      return intent.get().receipt();
    }
    String key = IdempotencyKeys.of(name(), resource, operation);
    if (lookup.isEmpty()) {
      throw inDoubt(
          resource,
          operation,
          key,
          "its intent is pending and no lookup request is configured",
          null);
    }
    ApiCalls.LookupResult found = calls().lookup(lookup.get(), key, resource, operation);
    if (found instanceof ApiCalls.Found record) {
      // Pending: the newest attempt's epoch is the newest under which it may have been sent.
      return Optional.of(
          new Receipt(
              name(),
              resource,
              operation,
              intent.get().epoch(),
              clock.instant(),
              lookupAttributes(key, record)));
    }
    if (found instanceof ApiCalls.Unavailable unavailable) {
      throw inDoubt(
          resource,
          operation,
          key,
          "its intent is pending and " + unavailable.reason(),
          unavailable.cause());
    }
    return Optional.empty();
  }

  /**
   * The validating builder of the settings only {@link HttpApiDestination} has (its endpoint
   * settings are {@link EndpointSettings}); each setting is documented on {@link
   * HttpApiDestination.Builder}, and each refusal carries the YAML key of the http destination it
   * is about. Not thread-safe.
   */
  static final class Builder {
    private final EndpointSettings.Builder endpoint;
    private IntentStore intentStore;
    private final Map<String, JsonPointer> fields = new LinkedHashMap<>();
    private ApiCalls.LookupRequest lookup;
    private Clock clock = Clock.systemUTC();
    private Duration keyRetention;
    private boolean resendInDoubtWithoutLookup;
    private boolean keysHonoured;

    /**
     * @param endpoint the endpoint settings the cross-checks of {@link #build} read
     */
    Builder(EndpointSettings.Builder endpoint) {
      this.endpoint = requireNonNull(endpoint, "endpoint is null");
    }

    void intentStore(IntentStore intentStore) {
      this.intentStore = requireNonNull(intentStore, "intentStore is null");
    }

    void receiptField(String attribute, String pointer) {
      this.fields.put(attribute, ReceiptFields.check(attribute, pointer));
    }

    void lookup(String pathTemplate, String recordPointer, String keyPointer) {
      this.lookup = ResultLookup.request(pathTemplate, recordPointer, keyPointer);
    }

    void resendInDoubtWithoutLookup(boolean resend) {
      this.resendInDoubtWithoutLookup = resend;
    }

    void keysHonoured(boolean honoured) {
      this.keysHonoured = honoured;
    }

    void keyRetention(Duration retention) {
      this.keyRetention =
          ResilienceSettings.positive(HttpConfigKeys.KEY_RETENTION, "key retention", retention);
    }

    void clock(Clock clock) {
      this.clock = requireNonNull(clock, "clock is null");
    }

    /** The rule the destination built now would re-send by. */
    private HttpApiDestination.ResendRule resendRule() {
      if (lookup != null) {
        return HttpApiDestination.ResendRule.LOOKUP_FIRST;
      }
      return keysHonoured
          ? HttpApiDestination.ResendRule.KEYS_HONOURED
          : HttpApiDestination.ResendRule.SEND_ONCE;
    }

    /**
     * Checks the endpoint's required settings, then these against them, then builds the endpoint
     * settings (reading the bearer token).
     *
     * @throws ConfigurationException as {@link HttpApiDestination.Builder#build} says
     */
    IntentEndpoint build() {
      endpoint.check();
      requireIntentStore();
      requireResendRule();
      requireKeyRetention();
      return new IntentEndpoint(this, endpoint.build());
    }

    private void requireIntentStore() {
      String name = endpoint.name();
      if (intentStore == null) {
        throw ConfigurationException.about(
            HttpConfigKeys.INTENT_STORE,
            "Cannot build "
                + endpoint.subject()
                + ": no intent store is set (call intentStore(jdbcStore.intentStore(\""
                + name
                + "\")); intents are what fences the calls)");
      }
      if (!intentStore.name().equals(name)) {
        throw ConfigurationException.about(
            HttpConfigKeys.INTENT_STORE,
            "Cannot build "
                + endpoint.subject()
                + " with intent store "
                + ApiRequest.quote(intentStore.name())
                + ": the names must match, or the destination would see another one's intents"
                + " (open the intent store as \""
                + name
                + "\")");
      }
    }

    /** Re-sends without a lookup rely on the API honouring keys: they must be declared. */
    private void requireResendRule() {
      if (lookup != null || keysHonoured) {
        return;
      }
      if (endpoint.maxAttempts() > 1) {
        throw ConfigurationException.about(
            HttpConfigKeys.KEYS_HONOURED,
            "Cannot build "
                + endpoint.subject()
                + ": no lookup request is configured and max attempts "
                + endpoint.maxAttempts()
                + " re-sends a request whose answer was lost without asking the API, relying on it"
                + " to honour the idempotency key in header "
                + endpoint.idempotencyKeyHeader()
                + " (configure a lookup, e.g. lookup(\"/payments?idempotency_key={key}\","
                + " \"/data/0\", \"/idempotency_key\"), so that every re-send asks first; declare"
                + " keysHonoured(true) if the API replays the stored result for a repeated key; or"
                + " send once with maxAttempts(1))");
      }
      if (resendInDoubtWithoutLookup) {
        throw ConfigurationException.about(
            HttpConfigKeys.RESEND_IN_DOUBT_WITHOUT_LOOKUP,
            "Cannot build "
                + endpoint.subject()
                + " with resendInDoubtWithoutLookup(true): without a lookup request it re-sends an"
                + " operation that may have landed, relying on the API to honour the idempotency key"
                + " in header "
                + endpoint.idempotencyKeyHeader()
                + " (declare keysHonoured(true) if the API replays the stored result for a repeated"
                + " key, or configure a lookup)");
      }
    }

    /** The API must keep keys longer than one write's own attempts can take. */
    private void requireKeyRetention() {
      if (keyRetention == null) {
        return;
      }
      Duration ownRetries = endpoint.longestRetrying();
      if (ownRetries.compareTo(keyRetention) >= 0) {
        throw ConfigurationException.about(
            HttpConfigKeys.KEY_RETENTION,
            "Cannot build "
                + endpoint.subject()
                + " with key retention "
                + keyRetention
                + ": one write's own attempts can take up to "
                + ownRetries
                + " (max attempts × (attempt time limit "
                + endpoint.attemptTimeLimit()
                + " + max backoff)), so the API could forget the key while the write still"
                + " retries (lower maxAttempts, attemptTimeLimit or the max backoff well below the"
                + " key retention)");
      }
    }
  }
}
