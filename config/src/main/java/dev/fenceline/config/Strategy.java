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

/** How a configured destination keeps stale writers out, chosen from the stores' capabilities. */
public enum Strategy {
  /**
   * The store offers a blob store and a pointer store that passed its checks (for example S3 with
   * the conditional-write probe): files are staged in its blob store and published by its own
   * pointer store.
   */
  STAGED_WITH_OWN_POINTER_STORE,

  /**
   * The store offers a blob store only (a {@code vfs} directory), or {@code pointer-store:} names
   * another store (required for an S3 bucket whose probe failed: that probe is per process, so no
   * process falls back by itself): files are staged in its blob store and published by the other
   * store's pointer store, the one recorded for the destination where the blob store records it.
   */
  STAGED_WITH_POINTER_STORE,

  /**
   * An external HTTP API that honours idempotency keys but cannot compare epochs: intents are
   * recorded with an epoch check before any request ({@code FENCED_AT_INTENT}).
   */
  FENCED_AT_INTENT,

  /**
   * The store checks epochs itself ({@code type: fenced}): each write compares the epoch, applies
   * the file and records the operation in one step at the store, through its fenced destination
   * ({@code Adapter#destination}).
   */
  FENCED_NATIVELY
}
