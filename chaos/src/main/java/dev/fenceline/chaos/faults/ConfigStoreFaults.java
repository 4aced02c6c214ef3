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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * The store faults the CLI can inject into the stores of any configuration file: {@link
 * ProxiedStoreFaults} through a {@link ProxiedConfig} copy for every network endpoint, and a {@link
 * SqliteLockFault} for every SQLite database file.
 *
 * <pre>{@code
 * try (ConfigStoreFaults faults = ConfigStoreFaults.of(yaml, outDir)) {
 *   ChaosRun.builder().config(faults.config(), destination).storeFaults(faults) ...
 * }
 * }</pre>
 *
 * <p>Kinds: {@code proxy-cut}, {@code proxy-delay}, {@code proxy-drop-answers} when some endpoint
 * is proxied, {@code store-lock} when some store is a SQLite file; {@link #inject} picks the target
 * of a kind with the run's {@link Random}.
 */
public final class ConfigStoreFaults implements StoreFaults {

  /** The copy's file name in the output directory. */
  public static final String CONFIG_FILE = "fenceline-proxied.yaml";

  private final ProxiedConfig proxied;
  private final List<StoreFaults> parts;
  private final Map<String, List<StoreFaults>> byKind = new LinkedHashMap<>();

  private ConfigStoreFaults(ProxiedConfig proxied, List<StoreFaults> parts) {
    this.proxied = proxied;
    this.parts = List.copyOf(parts);
    for (StoreFaults part : parts) {
      part.kinds().forEach(kind -> byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(part));
    }
  }

  /**
   * As {@link #of(Path, Path, Function)} with the process environment.
   *
   * @throws IllegalArgumentException if no store of the file can be faulted (naming each store and
   *     why), or an endpoint cannot be read
   */
  public static ConfigStoreFaults of(Path yaml, Path outDir) {
    return of(yaml, outDir, System::getenv);
  }

  /**
   * Writes {@code outDir/fenceline-proxied.yaml}, {@code yaml} with every network endpoint through
   * a proxy ({@link ProxiedConfig}), and returns the faults on those proxies and on every SQLite
   * file; the workers load {@link #config()}.
   *
   * @throws IllegalArgumentException if no store of the file can be faulted (naming each store and
   *     why), or an endpoint cannot be read
   */
  public static ConfigStoreFaults of(Path yaml, Path outDir, Function<String, String> environment) {
    requireNonNull(outDir, "outDir is null");
    ProxiedConfig proxied = ProxiedConfig.write(yaml, outDir.resolve(CONFIG_FILE), environment);
    List<StoreFaults> parts = new ArrayList<>();
    if (!proxied.proxies().isEmpty()) {
      parts.add(new ProxiedStoreFaults(proxied.proxies()));
    }
    proxied.sqliteFiles().values().stream()
        .distinct()
        .forEach(file -> parts.add(new SqliteLockFault(file)));
    if (parts.isEmpty()) {
      proxied.close();
      throw new IllegalArgumentException(
          "Cannot inject store faults into the stores of "
              + yaml
              + ": none has a network endpoint to proxy or a SQLite file to lock:\n  "
              + proxied.description().replace("\n", "\n  ")
              + "\nRun without store faults (--faults pause,kill), or point a store at an http,"
              + " PostgreSQL, ZooKeeper or SQLite endpoint");
    }
    return new ConfigStoreFaults(proxied, parts);
  }

  /** {@return the configuration the workers load}: the copy pointing at the proxies */
  public Path config() {
    return proxied.file();
  }

  /** {@return the proxied copy}, its proxies and SQLite files */
  public ProxiedConfig proxied() {
    return proxied;
  }

  /** {@return what is faulted and what is not, one line per store}, for the run's META line */
  public String description() {
    return proxied.description();
  }

  @Override
  public List<String> kinds() {
    return List.copyOf(byKind.keySet());
  }

  @Override
  public String inject(String kind, Random random) throws Exception {
    requireNonNull(kind, "kind is null");
    requireNonNull(random, "random is null");
    List<StoreFaults> candidates = byKind.get(kind);
    if (candidates == null) {
      throw new IllegalArgumentException(
          "Cannot inject store fault \""
              + kind
              + "\" into the stores of "
              + proxied.file()
              + ": use one of "
              + kinds());
    }
    StoreFaults target =
        candidates.size() == 1
            ? candidates.get(0)
            : candidates.get(random.nextInt(candidates.size()));
    return target.inject(kind, random);
  }

  @Override
  public void heal() throws Exception {
    StoreFaults.healAll(parts);
  }

  @Override
  public void close() {
    parts.forEach(StoreFaults::close);
    proxied.close();
  }

  @Override
  public String toString() {
    return "ConfigStoreFaults" + parts;
  }
}
