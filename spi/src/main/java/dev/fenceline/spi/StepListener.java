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
 * Called by destinations when a fenced write reaches a {@link FencingStep}, on the writing thread.
 * A listener may block (tests use latches to pause a worker there); a destination must hold its
 * locks across the call, exactly as it would without a listener. Which steps each outcome reports,
 * and in which order, is stated in {@link FencingStep}.
 */
@FunctionalInterface
public interface StepListener {

  /** A listener that does nothing. */
  StepListener NONE = (step, token, operation) -> {};

  /**
   * The write for {@code operation} with {@code token} reached {@code step}.
   *
   * @param step the fencing step
   * @param token the fencing token
   * @param operation the operation ID
   * @throws RuntimeException to abort the write; the destination rolls back what is not committed
   *     (everything of the step, the epoch registration included, unless thrown at {@link
   *     FencingStep#AFTER_COMMIT}), and the write throws it on
   */
  void reached(FencingStep step, FencingToken token, OperationId operation);
}
