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
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.ResourceId;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The lease of the {@link Fenced} method running on the current thread: {@code @Scheduled} methods
 * take no parameters, so the method asks here for the lease its writes carry.
 *
 * <pre>{@code
 * FencingToken token = FencedContext.currentToken();
 * }</pre>
 *
 * <p>The lease is set for the thread that runs the method and cleared when it returns; work the
 * method hands to other threads must take the lease or token along.
 */
public final class FencedContext {

  /** Set only while a fenced method runs on the thread: asking leaves nothing behind. */
  private static final ThreadLocal<Deque<HeldLease>> LEASES = new ThreadLocal<>();

  private FencedContext() {}

  /**
   * The lease of the innermost {@link Fenced} method running on this thread.
   *
   * @throws IllegalStateException if no {@code @Fenced} method runs on this thread
   */
  public static HeldLease currentLease() {
    HeldLease lease = innermost();
    if (lease == null) {
      throw new IllegalStateException(
          "Cannot get the current lease: no @Fenced method runs on this thread (call it from"
              + " inside a method annotated @Fenced, on the thread that runs it, or pass the lease"
              + " to the threads it starts)");
    }
    return lease;
  }

  /**
   * The fencing token of {@link #currentLease()}, which every write of the method carries.
   *
   * @throws IllegalStateException if no {@code @Fenced} method runs on this thread
   */
  public static FencingToken currentToken() {
    return currentLease().token();
  }

  /** The lease of the innermost {@link Fenced} method running on this thread, if any. */
  public static Optional<HeldLease> find() {
    return Optional.ofNullable(innermost());
  }

  private static HeldLease innermost() {
    Deque<HeldLease> leases = LEASES.get();
    return leases == null ? null : leases.peek();
  }

  /** The lease on {@code resource} a {@link Fenced} method of this thread runs under, if any. */
  static Optional<HeldLease> find(ResourceId resource) {
    Deque<HeldLease> leases = LEASES.get();
    if (leases == null) {
      return Optional.empty();
    }
    for (HeldLease lease : leases) {
      if (lease.token().resource().equals(resource)) {
        return Optional.of(lease);
      }
    }
    return Optional.empty();
  }

  /** Runs {@code body} with {@code lease} as this thread's current lease. */
  static <T> T with(HeldLease lease, Body<T> body) throws Throwable {
    Deque<HeldLease> leases = LEASES.get();
    if (leases == null) {
      leases = new ArrayDeque<>();
      LEASES.set(leases);
    }
    leases.push(lease);
    try {
      return body.run();
    } finally {
      leases.pop();
      if (leases.isEmpty()) {
        LEASES.remove();
      }
    }
  }

  /** A method's run. */
  interface Body<T> {
    T run() throws Throwable;
  }
}
