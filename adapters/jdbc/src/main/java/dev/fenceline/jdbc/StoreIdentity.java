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
package dev.fenceline.jdbc;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.TokenKeys;

/**
 * Who a {@link JdbcStore}'s database is to a fencing token: the issuer identity its lease issuer
 * puts into tokens and its pointer and intent stores answer as their store identity (created with
 * the tables, the same for every process), and the keys, if configured, that sign the tokens it
 * hands out and verify the tokens its destinations are given. No {@code toString}: it holds keys.
 */
final class StoreIdentity {

  private final String id;
  private final String description;
  private final TokenKeys tokenKeys;

  /**
   * @param id the identity read from the tables, or null if there are none yet (read-only store)
   * @param description the database, as shown in messages (no credentials)
   * @param tokenKeys the keys tokens are signed and verified with, or null for unsigned tokens
   */
  StoreIdentity(String id, String description, TokenKeys tokenKeys) {
    this.id = id;
    this.description = description;
    this.tokenKeys = tokenKeys;
  }

  /**
   * The identity.
   *
   * @throws IllegalStateException if the database has no Fenceline tables yet
   */
  String id() {
    if (id == null) {
      throw new IllegalStateException(
          "Cannot tell the identity of " + description + ": it has no Fenceline tables yet");
    }
    return id;
  }

  /** True if Fenceline's tables are there (a read-only store may find none). */
  boolean tablesPresent() {
    return id != null;
  }

  /** Signs a token with the configured keys, or returns it unchanged without keys. */
  FencingToken sign(FencingToken token) {
    return tokenKeys == null ? token : tokenKeys.sign(token);
  }

  /** Refuses an unsigned or forged token if keys are configured. */
  void verify(FencingToken token, String action) {
    if (tokenKeys != null) {
      tokenKeys.verify(token, action);
    }
  }
}
