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
 * The answer of {@link IntentStore#begin}: either the attempt may go on ({@link IntentRecorded}),
 * or a newer epoch is registered and the caller must not send anything ({@link RejectedStale}).
 */
public sealed interface IntentOutcome permits IntentRecorded, RejectedStale {

  /** {@return the resource the intent is for} */
  ResourceId resource();
}
