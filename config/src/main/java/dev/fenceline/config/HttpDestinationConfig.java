package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.http.HttpApiDestination;
import dev.fenceline.http.ResilienceSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A destination of {@code type: http}: one external API call per operation, fenced at the intent
 * ({@code dev.fenceline.http.HttpApiDestination}, guarantee {@code FENCED_AT_INTENT}; publishing to
 * it needs {@code allow-fenced-at-intent: true}).
 *
 * <table>
 *   <caption>http destination keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code base-uri}</td><td>the API's base URL, no credentials</td><td>required</td></tr>
 *   <tr><td>{@code intent-store}</td><td>the store that records intents (jdbc)</td><td>the
 *       issuer's store</td></tr>
 *   <tr><td>{@code bearer-token-env}</td><td>environment variable holding the bearer token (its
 *       value is masked everywhere)</td><td>no token</td></tr>
 *   <tr><td>{@code idempotency-key-header}</td><td>header carrying the key</td><td>{@code
 *       Idempotency-Key}</td></tr>
 *   <tr><td>{@code attempt-time-limit}</td><td>time limit of one attempt</td><td>{@code 3s}</td></tr>
 *   <tr><td>{@code max-attempts}</td><td>attempts per request, 1 to 20</td><td>{@code 3}</td></tr>
 *   <tr><td>{@code backoff.initial}, {@code backoff.multiplier}, {@code backoff.max}</td>
 *       <td>exponential backoff</td><td>{@code 500ms}, {@code 2.0}, {@code 2s}</td></tr>
 *   <tr><td>{@code lookup.path}, {@code lookup.record-pointer}, {@code lookup.key-pointer}</td>
 *       <td>result lookup by key ({@code {key}} placeholder), JSON pointers</td><td>no lookup</td></tr>
 *   <tr><td>{@code key-retention}</td><td>how long the API keeps keys</td><td>forever</td></tr>
 *   <tr><td>{@code keys-honoured}</td><td>the API replays the stored result for a repeated key:
 *       without a {@code lookup}, required ({@code true}) for {@code max-attempts} above 1 and for
 *       {@code resend-in-doubt-without-lookup}, since those re-send blind; with a lookup every
 *       re-send asks it first and this changes nothing</td><td>{@code false}</td></tr>
 *   <tr><td>{@code resend-in-doubt-without-lookup}</td><td>see {@code HttpApiDestination}</td>
 *       <td>{@code false}</td></tr>
 *   <tr><td>{@code receipt-fields}</td><td>receipt attribute → JSON pointer of the answer</td>
 *       <td>none</td></tr>
 *   <tr><td>{@code request.method}, {@code request.path}, {@code request.content-type}</td><td>the
 *       request a published file is sent with; the path may hold {@code {resource}} and {@code
 *       {operation}}</td><td>{@code POST}, required, {@code application/octet-stream}</td></tr>
 * </table>
 *
 * @param baseUri see the table
 * @param intentStore see the table
 * @param bearerTokenEnv see the table
 * @param idempotencyKeyHeader see the table
 * @param attemptTimeLimit see the table
 * @param maxAttempts see the table
 * @param backoff see the table
 * @param lookup see the table
 * @param keyRetention see the table
 * @param keysHonoured see the table
 * @param resendInDoubtWithoutLookup see the table
 * @param receiptFields see the table
 * @param request see the table
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

  static final Set<String> KEYS =
      Set.of(
          "type",
          "base-uri",
          "intent-store",
          "bearer-token-env",
          "idempotency-key-header",
          "attempt-time-limit",
          "max-attempts",
          "backoff",
          "lookup",
          "key-retention",
          "keys-honoured",
          "resend-in-doubt-without-lookup",
          "receipt-fields",
          "request");

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
    static final Set<String> KEYS = Set.of("initial", "multiplier", "max");

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
    static final Set<String> KEYS = Set.of("path", "record-pointer", "key-pointer");

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
    static final Set<String> KEYS = Set.of("method", "path", "content-type");

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
    String sample = request.path().replace("{resource}", "r").replace("{operation}", "o");
    try {
      dev.fenceline.http.ApiRequest.of(
          request.method(),
          sample,
          request.contentType(),
          Map.of(),
          new dev.fenceline.http.ApiRequest.BytesBody(new byte[0]));
    } catch (IllegalArgumentException | dev.fenceline.spi.ConfigurationException e) {
      String key =
          e.getMessage() != null && e.getMessage().contains("content type")
              ? "content-type"
              : "path";
      throw template.valueError(
          key,
          "the request cannot be sent: " + e.getMessage(),
          "give a path relative to the base URI, starting with /, e.g. /reports/{resource}");
    }
  }

  static HttpDestinationConfig from(Section section) {
    section.allowOnly(KEYS);
    String base = section.requiredString("base-uri", "https://api.example.com/v1");
    URI baseUri;
    try {
      baseUri = new URI(base);
    } catch (URISyntaxException e) {
      throw section.valueError(
          "base-uri",
          "\"" + section.shown("base-uri", base) + "\" is not a URL",
          "e.g. https://api.example.com/v1");
    }
    if (baseUri.getRawUserInfo() != null) {
      throw section.valueError(
          "base-uri",
          "\""
              + base.replace(baseUri.getRawUserInfo() + "@", Secrets.MASK + "@")
              + "\" carries credentials (user information before the host)",
          "remove them from the URL and give the API's token with bearer-token-env: VARIABLE");
    }
    Backoff backoff =
        section
            .section("backoff")
            .map(
                b -> {
                  b.allowOnly(Backoff.KEYS);
                  Backoff value =
                      new Backoff(
                          b.positiveDuration("initial").orElse(Backoff.DEFAULT.initial()),
                          b.decimal("multiplier", 1, 100).orElse(Backoff.DEFAULT.multiplier()),
                          b.positiveDuration("max").orElse(Backoff.DEFAULT.max()));
                  if (value.max().compareTo(value.initial()) < 0) {
                    throw b.valueError(
                        "max", "max is shorter than initial", "make max at least initial");
                  }
                  return value;
                })
            .orElse(Backoff.DEFAULT);
    Optional<Lookup> lookup =
        section
            .section("lookup")
            .map(
                l -> {
                  l.allowOnly(Lookup.KEYS);
                  return new Lookup(
                      l.requiredString("path", "/payments/by-key/{key}"),
                      l.string("record-pointer"),
                      l.string("key-pointer"));
                });
    RequestTemplate request =
        section
            .section("request")
            .map(
                r -> {
                  r.allowOnly(RequestTemplate.KEYS);
                  String method = r.string("method").orElse("POST");
                  if (!Set.of("POST", "PUT", "PATCH").contains(method)) {
                    throw r.valueError(
                        "method",
                        "\"" + method + "\" cannot send a file",
                        "write POST, PUT or PATCH");
                  }
                  return new RequestTemplate(
                      method,
                      r.requiredString("path", "/reports/{resource}"),
                      r.string("content-type").orElse("application/octet-stream"));
                })
            .orElseThrow(
                () ->
                    section.keyError(
                        "request",
                        "the key is missing",
                        "add request: {method: POST, path: /reports/{resource}, content-type:"
                            + " application/json}"));
    return new HttpDestinationConfig(
        baseUri,
        section.string("intent-store"),
        section.string("bearer-token-env"),
        section.string("idempotency-key-header").orElse("Idempotency-Key"),
        section
            .positiveDuration("attempt-time-limit")
            .orElse(HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT),
        section.integer("max-attempts", 1, 20).orElse(ResilienceSettings.DEFAULT_MAX_ATTEMPTS),
        backoff,
        lookup,
        section.positiveDuration("key-retention"),
        section.bool("keys-honoured").orElse(false),
        section.bool("resend-in-doubt-without-lookup").orElse(false),
        section.strings("receipt-fields"),
        request);
  }
}
