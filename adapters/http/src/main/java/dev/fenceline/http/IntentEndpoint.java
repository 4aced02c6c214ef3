package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
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
import tools.jackson.databind.JsonNode;

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

  private final EndpointSettings settings;
  private final IntentStore intents;
  private final Optional<ApiCalls.LookupRequest> lookup;
  private final ReceiptFields fields;
  private final Clock clock;
  private final Optional<Duration> keyRetention;
  private final boolean resendInDoubtWithoutLookup;
  private final LongSupplier nanoTime;

  /**
   * @param lookup the lookup request, empty for none
   * @param keyRetention how long the API keeps keys, empty for as long as operations are retried
   * @param nanoTime the monotonic time source for stalls before sending
   */
  IntentEndpoint(
      EndpointSettings settings,
      IntentStore intents,
      Optional<ApiCalls.LookupRequest> lookup,
      ReceiptFields fields,
      Clock clock,
      Optional<Duration> keyRetention,
      boolean resendInDoubtWithoutLookup,
      LongSupplier nanoTime) {
    this.settings = requireNonNull(settings, "settings is null");
    this.intents = requireNonNull(intents, "intents is null");
    this.lookup = requireNonNull(lookup, "lookup is null");
    this.fields = requireNonNull(fields, "fields is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.keyRetention = requireNonNull(keyRetention, "keyRetention is null");
    this.resendInDoubtWithoutLookup = resendInDoubtWithoutLookup;
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
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
   * Records the result with {@link IntentStore#complete}.
   *
   * @throws ApiOutcomeUnknownException if the intent store failed: the API applied it
   */
  WriteOutcome record(
      FencingToken token, OperationId operation, String key, Map<String, String> attributes) {
    try {
      return intents.complete(token, operation, attributes);
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
    Optional<JsonNode> document = ApiCalls.parse(response.body());
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
}
