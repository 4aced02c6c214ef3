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
 * The answer of a fenced write. Callers must handle all three cases; a failure to reach the
 * destination is not an outcome but a {@link StoreException}.
 *
 * <ul>
 *   <li>{@link Applied}: the epoch was current (or newer, and is now registered), the operation had
 *       not been applied, and the change and its receipt were recorded in one atomic step.
 *   <li>{@link AlreadyApplied}: the epoch was current, and the operation had been applied before;
 *       nothing changed and the original receipt is returned.
 *   <li>{@link RejectedStale}: a newer epoch is registered; nothing changed.
 * </ul>
 */
public sealed interface WriteOutcome permits Applied, AlreadyApplied, RejectedStale {

  /** {@return the resource the write was for} */
  ResourceId resource();
}
