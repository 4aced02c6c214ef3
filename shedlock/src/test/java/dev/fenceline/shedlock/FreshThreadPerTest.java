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
package dev.fenceline.shedlock;

import dev.fenceline.spi.FencingToken;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Runs each test method on a thread of its own and fails it if a token is left on that thread
 * afterwards. ShedLock's suites leave locks they never unlock on the shared test thread (their
 * tokens stay there until {@code lockAtMostFor} passes); a fresh thread keeps the token tests
 * independent of them.
 */
final class FreshThreadPerTest implements InvocationInterceptor {

  @Override
  public void interceptTestMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> invocationContext,
      ExtensionContext extensionContext)
      throws Throwable {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicReference<Optional<FencingToken>> left = new AtomicReference<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                invocation.proceed();
              } catch (Throwable t) {
                failure.set(t);
              }
              left.set(FencelineLocks.currentToken());
            },
            extensionContext.getDisplayName());
    thread.start();
    thread.join(TimeUnit.MINUTES.toMillis(2));
    if (thread.isAlive()) {
      thread.interrupt();
      throw new AssertionError("the test did not end within 2 minutes");
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    if (left.get().isPresent()) {
      throw new AssertionError("the test left a token on its thread: " + left.get().get());
    }
  }
}
