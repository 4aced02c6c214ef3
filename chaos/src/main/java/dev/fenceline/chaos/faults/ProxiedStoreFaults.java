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
package dev.fenceline.chaos.faults;

import static java.util.Objects.requireNonNull;

import dev.fenceline.chaos.StoreFaults;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * Store faults through {@link FaultProxy}s in front of a store's endpoints: kinds {@code
 * proxy-cut}, {@code proxy-delay} (200 ms to 2 s) and {@code proxy-drop-answers}, each on one proxy
 * chosen with the run's {@link Random}. {@link #heal()} heals every proxy; {@link #close()} closes
 * them.
 */
public final class ProxiedStoreFaults implements StoreFaults {

  /** Closes every forwarded connection and resets new ones until healed. */
  public static final String CUT = "proxy-cut";

  /** Holds the bytes both ways for a while. */
  public static final String DELAY = "proxy-delay";

  /** Lets requests land and loses their answers. */
  public static final String DROP_ANSWERS = "proxy-drop-answers";

  private static final List<String> KINDS = List.of(CUT, DELAY, DROP_ANSWERS);
  private static final long MIN_DELAY_MILLIS = 200;
  private static final long MAX_DELAY_MILLIS = 2_000;

  private final List<FaultProxy> proxies;

  /**
   * Faults on {@code proxies}, which this then owns (closes).
   *
   * @throws IllegalArgumentException if {@code proxies} is empty
   */
  public ProxiedStoreFaults(List<FaultProxy> proxies) {
    this.proxies = List.copyOf(requireNonNull(proxies, "proxies is null"));
    if (this.proxies.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot inject proxy faults without a proxy: give at least one FaultProxy");
    }
  }

  /** {@return the proxies, in the order given} */
  public List<FaultProxy> proxies() {
    return proxies;
  }

  @Override
  public List<String> kinds() {
    return KINDS;
  }

  @Override
  public String inject(String kind, Random random) {
    requireNonNull(kind, "kind is null");
    requireNonNull(random, "random is null");
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "Cannot inject store fault \"" + kind + "\" through a proxy: use one of " + KINDS);
    }
    FaultProxy proxy = proxies.get(random.nextInt(proxies.size()));
    String where = proxy.name() + " (" + proxy.address() + " -> " + proxy.target() + ")";
    switch (kind) {
      case CUT:
        proxy.cut();
        return "cut " + where;
      case DELAY:
        long millis =
            MIN_DELAY_MILLIS + random.nextInt((int) (MAX_DELAY_MILLIS - MIN_DELAY_MILLIS));
        proxy.delay(Duration.ofMillis(millis));
        return "delayed " + where + " by " + millis + " ms";
      default:
        proxy.dropAnswers();
        return "dropping answers of " + where;
    }
  }

  @Override
  public void heal() {
    proxies.forEach(FaultProxy::heal);
  }

  @Override
  public void close() {
    proxies.forEach(FaultProxy::close);
  }

  @Override
  public String toString() {
    return "ProxiedStoreFaults" + proxies;
  }
}
