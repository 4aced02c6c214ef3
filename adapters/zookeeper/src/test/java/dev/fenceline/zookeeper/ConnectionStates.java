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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Records the connection states Curator reports for one client, in order, so a test can wait for
 * the next one instead of sleeping.
 */
final class ConnectionStates implements ConnectionStateListener {

  private final BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
  private final List<ConnectionState> seen = new ArrayList<>();

  /** Starts recording the states of {@code client} from now on. */
  static ConnectionStates of(CuratorFramework client) {
    ConnectionStates recorder = new ConnectionStates();
    client.getConnectionStateListenable().addListener(recorder);
    return recorder;
  }

  @Override
  public void stateChanged(CuratorFramework client, ConnectionState newState) {
    states.add(newState);
  }

  /**
   * Waits for {@code expected}, consuming the states reported before it, and returns every state
   * consumed so far (by this and earlier calls), {@code expected} last.
   *
   * @throws AssertionError if {@code expected} is not reported within {@code timeout}
   */
  synchronized List<ConnectionState> await(ConnectionState expected, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      ConnectionState next = states.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (next == null) {
        throw new AssertionError(
            "Curator did not report " + expected + " within " + timeout + "; it reported " + seen);
      }
      seen.add(next);
      if (next == expected) {
        return List.copyOf(seen);
      }
    }
  }

  /** Every state consumed by {@link #await} so far, in order. */
  synchronized List<ConnectionState> seen() {
    return List.copyOf(seen);
  }
}
