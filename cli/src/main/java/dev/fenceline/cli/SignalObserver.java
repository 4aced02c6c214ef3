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
package dev.fenceline.cli;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.Consumer;

/**
 * Observes which signal (SIGINT, SIGTERM, SIGHUP) tells the JVM to exit, for {@link Interruption}'s
 * line, without handling it: the JVM's own handler still runs the shutdown hooks.
 */
final class SignalObserver {

  private SignalObserver() {}

  /**
   * Passes the name of each signal that arrives ({@code SIGINT}) to {@code observed}, then hands
   * the signal to the JVM's own handler (which runs the shutdown hooks and exits with 128 + its
   * number). Only where {@code sun.misc.Signal} exists and the JVM handles the signal itself;
   * otherwise nothing changes and the line says "told to exit".
   */
  static void observe(Consumer<String> observed) {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
      Method name = signalClass.getMethod("getName");
      Method handleSignal = handlerClass.getMethod("handle", signalClass);
      Object systemDefault = handlerClass.getField("SIG_DFL").get(null);
      Object ignored = handlerClass.getField("SIG_IGN").get(null);
      for (String signalName : List.of("INT", "TERM", "HUP")) {
        Object sig = signalClass.getConstructor(String.class).newInstance(signalName);
        Object[] previous = new Object[1];
        Object observer =
            Proxy.newProxyInstance(
                handlerClass.getClassLoader(),
                new Class<?>[] {handlerClass},
                (proxy, method, args) -> {
                  if (method.getName().equals("handle")) {
                    observed.accept("SIG" + name.invoke(args[0]));
                    handleSignal.invoke(previous[0], args[0]);
                    return null;
                  }
                  return switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> "signal observer";
                  };
                });
        previous[0] = handle.invoke(null, sig, observer);
        if (previous[0] == systemDefault || previous[0] == ignored) {
          handle.invoke(null, sig, previous[0]); // not the JVM's handler: leave it alone
        }
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // No observer: the hook still runs, without the signal's name.
    }
  }
}
