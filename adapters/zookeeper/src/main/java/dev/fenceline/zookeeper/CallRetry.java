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
package dev.fenceline.zookeeper;

import static dev.fenceline.zookeeper.ZkStore.BASE_RETRY_SLEEP;
import static dev.fenceline.zookeeper.ZkStore.MAX_RETRY_SLEEP;
import static dev.fenceline.zookeeper.ZkStore.RETRIES;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.curator.CuratorZookeeperClient;
import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;

/**
 * Curator's bounded exponential back-off (base 100 ms, at most 1 s, {@link ZkStore#RETRIES}
 * retries) that starts a retry only if the sleep and a whole try still end before the call's
 * deadline (an operation outside a call: its own start plus the call bound).
 *
 * <p>A try is a wait for the connection and then the request (see {@link
 * ZkStore#callBound(Duration)}). Curator waits for the connection before the first try only: a
 * retry while the client is still reconnecting (a leader election, ~1 s) would fail at once with
 * {@code CONNECTIONLOSS} and spend the retries in a fraction of the time they are given. So after
 * its sleep a retry waits for the connection, at most the connection timeout, which the whole try
 * it was checked for includes.
 */
final class CallRetry implements RetryPolicy {
  private final CallDeadline deadline;
  private final long boundNanos;
  private final long tryNanos;
  private volatile CuratorZookeeperClient connection;

  CallRetry(CallDeadline deadline, Duration bound, Duration oneTry) {
    this.deadline = deadline;
    this.boundNanos = bound.toNanos();
    this.tryNanos = oneTry.toNanos();
  }

  /** The client whose connection a retry waits for (set once the client is built). */
  void waitsFor(CuratorZookeeperClient client) {
    this.connection = client;
  }

  /** The longest sleep before retry {@code retry} (0 for the first retry). */
  static long longestSleepMillis(int retry) {
    return Math.min(MAX_RETRY_SLEEP.toMillis(), BASE_RETRY_SLEEP.toMillis() << (retry + 1));
  }

  @Override
  public boolean allowRetry(int retryCount, long elapsedTimeMs, RetrySleeper sleeper) {
    if (retryCount >= RETRIES) {
      return false;
    }
    long now = System.nanoTime();
    Long end = deadline.get();
    long until =
        end != null ? end : now - TimeUnit.MILLISECONDS.toNanos(elapsedTimeMs) + boundNanos;
    long sleep =
        Math.min(
            MAX_RETRY_SLEEP.toMillis(),
            BASE_RETRY_SLEEP.toMillis()
                * Math.max(1, ThreadLocalRandom.current().nextInt(1 << (retryCount + 1))));
    if (now + TimeUnit.MILLISECONDS.toNanos(sleep) + tryNanos > until) {
      return false;
    }
    try {
      sleeper.sleepFor(sleep, TimeUnit.MILLISECONDS);
      CuratorZookeeperClient client = connection;
      if (client != null && !client.isConnected()) {
        // Bounded by the client's connection timeout; false is left to the try to report.
        client.blockUntilConnectedOrTimedOut();
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
