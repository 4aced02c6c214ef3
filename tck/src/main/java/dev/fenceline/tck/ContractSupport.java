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

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** What the issuer and destination suites share: fresh resources, lease lengths, expiry. */
abstract class ContractSupport {

  private static final AtomicLong COUNTER = new AtomicLong();
  private final String run = Long.toString(System.nanoTime() & 0xffffff, 36);

  /** The issuer under test, over the store as it is now (a new instance after a restart). */
  protected abstract LeaseIssuer issuer();

  /**
   * Stops the store and starts it again on the same durable data (R11 d): an embedded database is
   * stopped and started on its data directory, a file database is closed and reopened. Instances
   * returned before must not be used afterwards.
   */
  protected abstract void restartStore();

  /** A lease length the suite lets expire. Default 300 ms. */
  protected Duration shortTtl() {
    return Duration.ofMillis(300);
  }

  /** A lease length that does not expire during a test. Default 60 s. */
  protected Duration longTtl() {
    return Duration.ofSeconds(60);
  }

  /**
   * Returns once {@code lease} has expired by the issuer's clock. The default polls {@link
   * LeaseIssuer#status} until the issuer says the lease is no longer held (bounded by {@link
   * PausePoints#TIMEOUT}); implementations with a controllable clock advance it instead.
   */
  protected void awaitExpiry(Lease lease) {
    long deadline = System.nanoTime() + PausePoints.TIMEOUT.toNanos();
    while (true) {
      LeaseStatus status = issuer().status(lease.resource());
      if (!status.held() || status.epoch().isNewerThan(lease.epoch())) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("lease " + lease.token() + " did not expire within the timeout");
      }
      // Polls a condition of the issuer's clock; no thread ordering depends on this wait.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  /** A resource no other test uses. */
  protected ResourceId freshResource(String name) {
    return ResourceId.of("tck-" + run + "/" + name + "-" + COUNTER.incrementAndGet());
  }

  /** True if {@code future} completed (normally or not) within {@code millis}. */
  static boolean awaitDone(CompletableFuture<?> future, long millis) {
    try {
      future.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Waits until {@code event} was logged {@code times} times; fails after the TCK timeout. */
  static void awaitLogged(PausePoints pauses, String event, int times) {
    long deadline = System.nanoTime() + PausePoints.TIMEOUT.toNanos();
    while (pauses.log().stream().filter(event::equals).count() < times) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(event + " was not logged " + times + " times: " + pauses.log());
      }
      Thread.onSpinWait();
    }
  }
}
