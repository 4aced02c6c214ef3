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

import dev.fenceline.spi.ConfigurationException;

/**
 * The YAML keys of an http destination ({@code config}'s {@code HttpDestinationConfig}) that the
 * builders' refusals carry as {@link ConfigurationException#key()}, so that a configuration loader
 * points at the line without reading the message. A refusal found by a cross-check in {@code
 * build()} carries the key whose change fixes it. A setting that YAML does not offer (the name, the
 * call time limit, jitter, circuit breaker, max response bytes and the native mode's own settings)
 * is refused without a key.
 */
final class HttpConfigKeys {

  static final String BASE_URI = "base-uri";
  static final String INTENT_STORE = "intent-store";
  static final String BEARER_TOKEN_ENV = "bearer-token-env";
  static final String IDEMPOTENCY_KEY_HEADER = "idempotency-key-header";
  static final String ATTEMPT_TIME_LIMIT = "attempt-time-limit";
  static final String MAX_ATTEMPTS = "max-attempts";
  static final String BACKOFF_INITIAL = "backoff.initial";
  static final String BACKOFF_MULTIPLIER = "backoff.multiplier";
  static final String BACKOFF_MAX = "backoff.max";
  static final String LOOKUP_PATH = "lookup.path";
  static final String LOOKUP_RECORD_POINTER = "lookup.record-pointer";
  static final String LOOKUP_KEY_POINTER = "lookup.key-pointer";
  static final String KEY_RETENTION = "key-retention";
  static final String KEYS_HONOURED = "keys-honoured";
  static final String RESEND_IN_DOUBT_WITHOUT_LOOKUP = "resend-in-doubt-without-lookup";
  static final String RECEIPT_FIELDS = "receipt-fields";

  private HttpConfigKeys() {}

  /** A refusal about {@code key}, or about no key if it is null (a setting YAML does not offer). */
  static ConfigurationException refusal(String key, String message, Throwable cause) {
    return key == null
        ? new ConfigurationException(message, cause)
        : new ConfigurationException(key, message, cause);
  }
}
