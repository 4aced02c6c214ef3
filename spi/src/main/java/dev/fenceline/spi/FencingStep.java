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
 * Named points inside a fenced write where a {@link StepListener} is called. Tests pause a worker
 * at these points to show atomicity (R11 c); tracing can time them.
 *
 * <p>What each outcome of {@link Destination#write} (and of {@link IntentStore#begin}) reports, in
 * this order:
 *
 * <ul>
 *   <li>applied ({@link Applied}; for an intent, {@link IntentRecorded}): {@link #BEFORE_LOCK},
 *       {@link #AFTER_EPOCH_CHECK}, {@link #AFTER_APPLY}, {@link #AFTER_COMMIT};
 *   <li>replayed ({@link AlreadyApplied}): {@link #BEFORE_LOCK}, {@link #AFTER_EPOCH_CHECK}, {@link
 *       #AFTER_COMMIT};
 *   <li>stale ({@link RejectedStale}): {@link #BEFORE_LOCK} only;
 *   <li>refused ({@link OperationConflictException}, {@link UntrustedTokenException}) or failed: no
 *       {@link #AFTER_COMMIT}; a conflict is found after {@link #AFTER_EPOCH_CHECK}, an unsigned or
 *       forged token is refused before {@link #BEFORE_LOCK}.
 * </ul>
 *
 * <p>{@link Destination#register} reports none. A staged destination reports {@link #AFTER_STAGE}
 * before its pointer store's {@link #BEFORE_LOCK}. A locking store reports each step at most once.
 * A compare-and-swap store that must decide again after a refused swap reports {@link
 * #AFTER_EPOCH_CHECK} and {@link #AFTER_APPLY} again for each new decision, so the lists above hold
 * for its last decision, and a write it answers stale or replayed may have reported those of an
 * earlier one; it reports {@link #BEFORE_LOCK} once, and {@link #AFTER_COMMIT} only for an answer
 * that committed.
 */
public enum FencingStep {
  /**
   * Right before the destination locks the resource's control record: before it reads the
   * registered epoch, and before anything that can wait for another writer of the resource (a lock,
   * a transaction that may wait for one). A writer paused here holds nothing, so other writers go
   * on; once resumed, it sees what they committed.
   */
  BEFORE_LOCK,
  /**
   * The token was trusted and its epoch compared (not older; registered if newer, undone with the
   * rest if the step does not commit); the operation record is not decided yet and the change not
   * applied. A locking store holds the resource's lock from here to the commit.
   */
  AFTER_EPOCH_CHECK,
  /**
   * The change was applied and the operation recorded, not yet committed (or, for a
   * compare-and-swap store, not yet swapped in): a listener that throws here leaves nothing of the
   * step.
   */
  AFTER_APPLY,
  /**
   * The atomic step committed (an applied change or a replay); the answer has not been returned
   * yet. A listener that throws here does not undo the commit.
   */
  AFTER_COMMIT,
  /** A staged payload is fully stored; the pointer was not swapped yet. */
  AFTER_STAGE
}
