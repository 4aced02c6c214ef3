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

import dev.fenceline.spi.ConfigKey;
import java.util.List;

/**
 * The keys of an {@link HttpApiDestination} in a configuration file ({@code type: http}), declared
 * once with the builder's own defaults: the YAML loader reads, checks, places and masks them from
 * here, and the configuration reference lists them. Nested keys are dotted ({@code backoff.max} is
 * {@code max:} under {@code backoff:}); the {@code request.*} keys say how a published file is
 * sent.
 */
public final class HttpDestinationKeys {

  /** Every key, in the order the loader reads them. */
  public static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.uri(HttpConfigKeys.BASE_URI)
              .required()
              .example("https://api.example.com/v1")
              .description("The API's base URL, http or https, without credentials or query.")
              .build(),
          ConfigKey.string(HttpConfigKeys.INTENT_STORE)
              .description("The store that records intents; unset: the issuer's store.")
              .build(),
          ConfigKey.string(HttpConfigKeys.BEARER_TOKEN_ENV)
              .description(
                  "The environment variable holding the bearer token; its value is never shown.")
              .build(),
          ConfigKey.string(HttpConfigKeys.IDEMPOTENCY_KEY_HEADER)
              .defaultValue(HttpApiDestination.DEFAULT_IDEMPOTENCY_KEY_HEADER)
              .description("The header that carries the idempotency key.")
              .build(),
          ConfigKey.duration(HttpConfigKeys.ATTEMPT_TIME_LIMIT)
              .defaultValue(HttpApiDestination.DEFAULT_ATTEMPT_TIME_LIMIT)
              .description("The time limit of one attempt, up to the last byte of the answer.")
              .build(),
          ConfigKey.integer(HttpConfigKeys.MAX_ATTEMPTS, 1, 20)
              .defaultValue(ResilienceSettings.DEFAULT_MAX_ATTEMPTS)
              .description(
                  "Attempts per request, the first included; above 1 needs a lookup or"
                      + " keys-honoured.")
              .build(),
          ConfigKey.duration(HttpConfigKeys.BACKOFF_INITIAL)
              .defaultValue(ResilienceSettings.DEFAULT_INITIAL_BACKOFF)
              .description("The first wait between attempts.")
              .build(),
          ConfigKey.decimal(HttpConfigKeys.BACKOFF_MULTIPLIER, 1, 100)
              .defaultValue(ResilienceSettings.DEFAULT_BACKOFF_MULTIPLIER)
              .description("How much each wait grows.")
              .build(),
          ConfigKey.duration(HttpConfigKeys.BACKOFF_MAX)
              .defaultValue(ResilienceSettings.DEFAULT_MAX_BACKOFF)
              .description("The longest wait, at least backoff.initial.")
              .build(),
          ConfigKey.string(HttpConfigKeys.LOOKUP_PATH)
              .description(
                  "The path that finds an operation's result by its key, with {key}; unset: no"
                      + " lookup.")
              .build(),
          ConfigKey.string(HttpConfigKeys.LOOKUP_RECORD_POINTER)
              .description("The JSON pointer of the record in a list answer, such as /data/0.")
              .build(),
          ConfigKey.string(HttpConfigKeys.LOOKUP_KEY_POINTER)
              .description(
                  "The JSON pointer of the idempotency key in the record, checked when found.")
              .build(),
          ConfigKey.duration(HttpConfigKeys.KEY_RETENTION)
              .description("How long the API keeps idempotency keys; unset: for as long as needed.")
              .build(),
          ConfigKey.bool(HttpConfigKeys.KEYS_HONOURED)
              .defaultValue(false)
              .description("The API replays the stored result for a repeated idempotency key.")
              .build(),
          ConfigKey.bool(HttpConfigKeys.RESEND_IN_DOUBT_WITHOUT_LOOKUP)
              .defaultValue(false)
              .description(
                  "Without a lookup, send an operation in doubt again (needs keys-honoured).")
              .build(),
          ConfigKey.map(HttpConfigKeys.RECEIPT_FIELDS)
              .description("Receipt attributes and the JSON pointers of the answer they come from.")
              .build(),
          ConfigKey.choice("request.method", "POST", "PUT", "PATCH")
              .defaultValue("POST")
              .description("The method a published file is sent with.")
              .build(),
          ConfigKey.string("request.path")
              .required()
              .example("/reports/{resource}")
              .description(
                  "The path under the base URL a file is sent to; {resource} and {operation} are"
                      + " replaced.")
              .build(),
          ConfigKey.string("request.content-type")
              .defaultValue("application/octet-stream")
              .description("The content type of a published file.")
              .build());

  private HttpDestinationKeys() {}
}
