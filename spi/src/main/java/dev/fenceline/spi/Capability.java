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
package dev.fenceline.spi;

/**
 * What a destination can check or record by itself. A destination returns the set it really has;
 * {@link Guarantee#of} turns that set into the guarantee Fenceline reports, and the conformance kit
 * tests each claimed capability.
 */
public enum Capability {
  /**
   * The destination compares the supplied epoch with the newest registered epoch in the same atomic
   * step as the change (one transaction, one conditional request), registers newer epochs and
   * rejects older ones (R2, R3).
   */
  NATIVE_EPOCH_CHECK,

  /**
   * The destination records the operation ID and its receipt in the same atomic step as the change,
   * and answers a retry of an applied operation with the stored receipt instead of applying it
   * again (R4).
   */
  OPERATION_RECORD,

  /**
   * {@link Destination#lookup} answers whether an operation was applied, and with which receipt,
   * whatever epoch is current; a worker that lost its answer can find out what happened.
   */
  RESULT_LOOKUP,

  /**
   * The payload is written to a store that cannot check epochs, under a staging key, and becomes
   * visible only through a publish pointer that a {@link PointerStore} swaps with an epoch check
   * (R6). A consumer that reads the staging area directly bypasses fencing.
   */
  STAGED_PUBLISH,

  /**
   * The destination deduplicates requests by the operation ID (an idempotency key) but cannot
   * compare epochs: a stale writer's first request for a new operation is not stopped (R7).
   */
  IDEMPOTENCY_KEY,

  /**
   * Before calling a system that cannot compare epochs, the destination records an intent in an
   * {@link IntentStore} with an epoch check in the same atomic step, and sends every attempt of an
   * operation under one idempotency key: a writer that is stale when it begins never sends, and no
   * attempt that begins after the operation completed sends. A writer whose intent was recorded
   * before a newer owner registered can still send its request (its retries included, all under the
   * one key) during the takeover (R7).
   */
  FENCED_INTENT
}
