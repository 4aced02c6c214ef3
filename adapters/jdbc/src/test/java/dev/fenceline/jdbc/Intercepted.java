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
package dev.fenceline.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * JDBC objects wrapped in a {@link Proxy} whose every call a test can act on: fail where a commit
 * happens, count round trips, hand a pooled connection back instead of closing it.
 */
final class Intercepted {

  private Intercepted() {}

  /** What a wrapper does with one call of the object it wraps. */
  interface Handler<T> {

    /**
     * Handles {@code call} with {@code args}; {@link #invoke(Method, Object, Object[])} runs it on
     * {@code real} unchanged.
     */
    Object handle(T real, Method call, Object[] args) throws Throwable;
  }

  /** {@code real} as a {@code type} whose every call goes through {@code handler}. */
  static <T> T wrap(Class<T> type, T real, Handler<? super T> handler) {
    return type.cast(
        Proxy.newProxyInstance(
            Intercepted.class.getClassLoader(),
            new Class<?>[] {type},
            (proxy, call, args) -> handler.handle(real, call, args)));
  }

  /** Runs {@code call} on {@code target} unchanged: what it returns, or what it throws. */
  static Object invoke(Method call, Object target, Object[] args) throws Throwable {
    try {
      return call.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * A data source that opens a new connection to {@code url} for every {@code getConnection} and
   * hands it out as {@code connections} wraps it; any other call is unsupported.
   */
  static DataSource connectingTo(String url, UnaryOperator<Connection> connections) {
    return wrap(
        DataSource.class,
        null,
        (none, method, args) -> {
          if (!method.getName().equals("getConnection")) {
            throw new UnsupportedOperationException(method.getName());
          }
          return connections.apply(DriverManager.getConnection(url));
        });
  }
}
