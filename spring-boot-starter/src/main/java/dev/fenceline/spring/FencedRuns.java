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
package dev.fenceline.spring;

import dev.fenceline.core.HeldLease;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link Fenced} methods running now in this application, each with its lease: what the health
 * indicator reports as the leases this application holds. Thread-safe.
 */
public final class FencedRuns {

  /**
   * One running call.
   *
   * @param method the fenced method
   * @param thread the thread that runs it
   * @param lease the lease it runs under
   */
  public record Run(Method method, Thread thread, HeldLease lease) {}

  private final List<Run> running = new CopyOnWriteArrayList<>();
  private final Object ends = new Object();

  /** The calls running now, oldest first. */
  public List<Run> running() {
    return List.copyOf(running);
  }

  void started(Run run) {
    running.add(run);
  }

  void ended(Run run) {
    running.remove(run);
    synchronized (ends) {
      ends.notifyAll();
    }
  }

  /**
   * Interrupts the thread of every running call and waits up to {@code atMost} for the calls to end
   * and release their leases: what the application context does when it closes, before it closes
   * the {@link dev.fenceline.core.Fenceline} the leases need to be released.
   *
   * @return true if no call runs any more; false if some still ran after {@code atMost} (their
   *     leases then expire by themselves at the issuer)
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean interruptAndAwait(Duration atMost) throws InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    running.forEach(run -> run.thread().interrupt());
    synchronized (ends) {
      while (!running.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        ends.wait(Math.max(1, left / 1_000_000));
      }
    }
    return true;
  }
}
