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

import dev.fenceline.spi.ConfigurationException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The intent mode's result lookup ({@link HttpApiDestination.Builder#lookup(String, String,
 * String)}): the checks of its settings, and how its answer reads as {@link ApiCalls.Found found},
 * {@link ApiCalls.NotFound not found} or {@link ApiCalls.Unavailable unavailable}.
 */
final class ResultLookup {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]*)}");
  private static final Set<String> PLACEHOLDERS = Set.of("key", "resource", "operation");

  private ResultLookup() {}

  /**
   * Checks the settings of a lookup request.
   *
   * @param recordPointer null for the whole answer
   * @param keyPointer null to check nothing
   * @throws ConfigurationException about {@code lookup.path}, {@code lookup.record-pointer} or
   *     {@code lookup.key-pointer}
   */
  static ApiCalls.LookupRequest request(
      String pathTemplate, String recordPointer, String keyPointer) {
    requireNonNull(pathTemplate, "pathTemplate is null");
    checkPath(pathTemplate);
    if (recordPointer == null && pathTemplate.contains("?")) {
      throw ConfigurationException.about(
          HttpConfigKeys.LOOKUP_PATH,
          "Cannot use lookup path "
              + ApiRequest.quote(pathTemplate)
              + " without a record pointer: a lookup with a query answers a list, and a list"
              + " that does not hold the operation (e.g. {\"data\":[]}) would be taken as found"
              + " (select the record and check its key, e.g. lookup(\"/payments?idempotency_key"
              + "={key}\", \"/data/0\", \"/idempotency_key\"))");
    }
    return new ApiCalls.LookupRequest(
        pathTemplate,
        recordPointer == null
            ? Optional.empty()
            : Optional.of(
                ReceiptFields.pointer(
                    HttpConfigKeys.LOOKUP_RECORD_POINTER, "lookup record pointer", recordPointer)),
        keyPointer == null
            ? Optional.empty()
            : Optional.of(
                ReceiptFields.pointer(
                    HttpConfigKeys.LOOKUP_KEY_POINTER, "lookup key pointer", keyPointer)));
  }

  private static void checkPath(String pathTemplate) {
    Matcher placeholders = PLACEHOLDER.matcher(pathTemplate);
    boolean any = false;
    while (placeholders.find()) {
      if (!PLACEHOLDERS.contains(placeholders.group(1))) {
        throw ConfigurationException.about(
            HttpConfigKeys.LOOKUP_PATH,
            "Cannot use lookup path "
                + ApiRequest.quote(pathTemplate)
                + ": unknown placeholder {"
                + placeholders.group(1)
                + "} (use {key}, {resource} or {operation})");
      }
      any = true;
    }
    String sample = pathTemplate.replaceAll("\\{(key|resource|operation)}", "x");
    try {
      ApiRequest.postJson(sample, "{}");
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          HttpConfigKeys.LOOKUP_PATH,
          "Cannot use lookup path "
              + ApiRequest.quote(pathTemplate)
              + ": give a path and query relative to the base URI, starting with / (e.g."
              + " /payments?idempotency_key={key})",
          e);
    }
    if (!any) {
      throw ConfigurationException.about(
          HttpConfigKeys.LOOKUP_PATH,
          "Cannot use lookup path "
              + ApiRequest.quote(pathTemplate)
              + ": it has no {key} placeholder, so it cannot find one operation (e.g."
              + " /payments?idempotency_key={key})");
    }
  }

  /**
   * What the lookup's last answer says: a 200 with a JSON record is found, a 404 or a 200 with an
   * empty record is not found, anything else (no answer, another status, a body that is too large,
   * incomplete or not JSON, a record holding another key) is unavailable.
   *
   * @param redact masks the bearer token in text quoted from the answer
   */
  static ApiCalls.LookupResult read(
      ApiCalls.LookupRequest lookup,
      String key,
      ApiCalls.SendReport report,
      int maxResponseBytes,
      UnaryOperator<String> redact) {
    ApiCalls.Response response = report.response();
    if (response == null) {
      Throwable e = report.failure();
      if (e instanceof CallNotPermittedException) {
        return new ApiCalls.Unavailable("the circuit breaker is open", e);
      }
      return new ApiCalls.Unavailable("the lookup failed: " + ApiCalls.describe(e), e);
    }
    if (response.status() == 404) {
      return new ApiCalls.NotFound(404);
    }
    if (response.status() != 200) {
      return new ApiCalls.Unavailable("the lookup answered HTTP " + response.status(), null);
    }
    if (response.truncated()) {
      return new ApiCalls.Unavailable(
          "the lookup's answer is larger than " + maxResponseBytes + " bytes", null);
    }
    if (response.bodyError().isPresent()) {
      return new ApiCalls.Unavailable(
          "the lookup's answer is incomplete: " + response.bodyError().get(), null);
    }
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (JacksonException e) {
      // Neither "found" nor "not found" can be read from it.
      return new ApiCalls.Unavailable(
          "the lookup answered HTTP 200 with a body that is not JSON", null);
    }
    return record(lookup, key, body, redact);
  }

  /** The record a 200 answer selects, checked against the key if a key pointer is configured. */
  private static ApiCalls.LookupResult record(
      ApiCalls.LookupRequest lookup, String key, JsonNode body, UnaryOperator<String> redact) {
    JsonNode record =
        lookup.recordPointer().map(pointer -> body == null ? null : body.at(pointer)).orElse(body);
    // A list endpoint answers 200 with an empty list when nothing matches: that is "not found".
    if (record == null
        || record.isMissingNode()
        || record.isNull()
        || ((record.isArray() || record.isObject()) && record.isEmpty())) {
      return new ApiCalls.NotFound(200);
    }
    if (lookup.keyPointer().isPresent()) {
      JsonNode recorded = record.at(lookup.keyPointer().get());
      if (!recorded.isString() || !recorded.stringValue().equals(key)) {
        String shown =
            recorded.isMissingNode()
                ? "nothing"
                : ApiRequest.quote(
                    redact.apply(
                        recorded.isString() ? recorded.stringValue() : recorded.toString()));
        return new ApiCalls.Unavailable(
            "the lookup's record holds "
                + shown
                + " at "
                + lookup.keyPointer().get()
                + " instead of the idempotency key "
                + key
                + ", so the lookup does not filter by key and cannot tell whether the API saw"
                + " this operation (fix the lookup path)",
            null);
      }
    }
    return new ApiCalls.Found(record);
  }
}
