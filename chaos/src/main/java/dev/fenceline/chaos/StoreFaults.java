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
package dev.fenceline.chaos;

import java.util.Collection;
import java.util.List;
import java.util.Random;

/**
 * Faults of the store behind a destination, injected by the driver where the harness owns the store
 * (an embedded PostgreSQL it can restart, a ZooKeeper ensemble whose leader it can kill) or a proxy
 * in front of it.
 */
public interface StoreFaults extends AutoCloseable {

  /**
   * {@return the kinds of fault this can inject} e.g. {@code store-restart}, {@code store-kill},
   * {@code leader-kill}, {@code proxy-cut}, {@code proxy-delay}, {@code proxy-drop-answers}
   */
  List<String> kinds();

  /**
   * Injects one fault of {@code kind}, choosing details with {@code random} (so a seed replays it).
   *
   * @return what was done, for the history (e.g. "killed leader 127.0.0.1:40123")
   * @throws Exception if the fault could not be injected
   */
  String inject(String kind, Random random) throws Exception;

  /**
   * Ends the current fault: the store is reachable again when this returns (restarted, proxy
   * healed).
   *
   * @throws Exception if the store cannot be brought back
   */
  void heal() throws Exception;

  /** Stops what the faults own (proxies); never throws a checked exception. */
  @Override
  void close();

  /**
   * Heals every one of {@code parts}, also when one fails; the first failure is thrown at the end
   * with the others suppressed.
   *
   * @throws Exception the first part's failure
   */
  static void healAll(Collection<? extends StoreFaults> parts) throws Exception {
    Exception failure = null;
    for (StoreFaults part : parts) {
      try {
        part.heal();
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
