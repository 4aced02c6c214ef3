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
package dev.fenceline.tck;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Runs a worker on its own thread and collects its result with a bounded wait. */
public final class Concurrently {

  private Concurrently() {}

  /** Starts {@code work} on a new thread named {@code name}. */
  public static <T> CompletableFuture<T> start(String name, Supplier<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                result.complete(work.get());
              } catch (Throwable failure) {
                result.completeExceptionally(failure);
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    return result;
  }

  /**
   * Waits for the worker's result; fails the test after {@link PausePoints#TIMEOUT}. A worker's
   * exception is rethrown as is (unchecked) or wrapped.
   */
  public static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(PausePoints.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new AssertionError(e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("worker did not finish within " + PausePoints.TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
