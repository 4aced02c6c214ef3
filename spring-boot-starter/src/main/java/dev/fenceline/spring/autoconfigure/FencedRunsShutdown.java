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
package dev.fenceline.spring.autoconfigure;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spring.FencedRuns;
import java.time.Duration;
import org.springframework.context.SmartLifecycle;

/**
 * Ends the running {@link dev.fenceline.spring.Fenced} calls when the application context closes:
 * interrupts their threads and waits, up to {@link #WAIT}, for them to release their leases. It
 * stops first (the highest phase), and lifecycle beans stop before any bean is destroyed, so the
 * {@link dev.fenceline.core.Fenceline} the releases need is still open.
 */
public final class FencedRunsShutdown implements SmartLifecycle {

  /** How long closing waits for the running calls to end. */
  public static final Duration WAIT = Duration.ofSeconds(10);

  private static final System.Logger LOG = System.getLogger(FencedRunsShutdown.class.getName());

  private final FencedRuns runs;
  private volatile boolean running;

  /** Ends {@code runs}' calls when the context closes. */
  public FencedRunsShutdown(FencedRuns runs) {
    this.runs = requireNonNull(runs, "runs is null");
  }

  @Override
  public void start() {
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    try {
      if (!runs.interruptAndAwait(WAIT)) {
        LOG.log(
            System.Logger.Level.WARNING,
            "Cannot end the running @Fenced calls before closing: "
                + runs.running().size()
                + " still ran after "
                + WAIT.toSeconds()
                + " s of waiting (their leases expire by themselves at the issuer; make the"
                + " methods stop when interrupted)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** The last phase: stopped before every other lifecycle bean. */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE;
  }
}
