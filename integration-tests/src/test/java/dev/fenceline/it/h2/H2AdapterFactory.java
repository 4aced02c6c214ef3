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
package dev.fenceline.it.h2;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.ConfigKey;
import dev.fenceline.spi.StoreRole;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code h2-test} adapter: fenced destinations of payloads on an embedded H2 database, built as
 * an adapter author outside Fenceline would build one, on the published SPI and {@code
 * fenceline-locking}'s {@link dev.fenceline.locking.LockingSteps}. It exists to show (and test)
 * that path; it is not a supported store.
 *
 * <p>Keys (flat, as a configuration file gives them):
 *
 * <ul>
 *   <li>{@code url}, required: the H2 JDBC URL, e.g. {@code jdbc:h2:/var/lib/app/fence};
 *   <li>{@code user}, default {@code sa};
 *   <li>{@code password}, secret, default none (an empty password);
 *   <li>{@code lock-timeout}, a duration, default {@code 10s}: how long a step waits for another
 *       writer's lock on a resource before it fails.
 * </ul>
 *
 * <p>Roles: {@link StoreRole#DESTINATION} only ({@link Adapter#destination(String)}); the issuer
 * comes from another store.
 */
public final class H2AdapterFactory implements AdapterFactory {

  /** The name configurations use. */
  public static final String NAME = "h2-test";

  private static final List<ConfigKey> KEYS =
      List.of(
          ConfigKey.string("url")
              .required()
              .example("jdbc:h2:/var/lib/app/fence")
              .description("The H2 JDBC URL of the database that holds the payloads and fences.")
              .build(),
          ConfigKey.string("user").defaultValue("sa").description("The database user.").build(),
          ConfigKey.string("password")
              .secret()
              .description("The database user's password; none if unset.")
              .build(),
          ConfigKey.duration("lock-timeout")
              .defaultValue(Duration.ofSeconds(10))
              .description("How long a step waits for another writer's lock on a resource.")
              .build());

  /** Found by {@link java.util.ServiceLoader}. */
  public H2AdapterFactory() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ConfigKey> configKeys() {
    return KEYS;
  }

  @Override
  public Set<StoreRole> roles() {
    return Set.of(StoreRole.DESTINATION);
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> config) {
    AdapterConfig checked = AdapterConfig.of(this, instanceName, config);
    String url = checked.required("url");
    if (!url.startsWith("jdbc:h2:")) {
      throw checked.error(
          "url",
          "key \"url\" has value "
              + checked.shown("url", url)
              + ", which is not an H2 URL (write it like jdbc:h2:/var/lib/app/fence)");
    }
    return new H2Adapter(
        new H2Store(
            url,
            checked.optional("user").orElseThrow(),
            checked.optional("password").orElse(""),
            checked.duration("lock-timeout").orElseThrow()));
  }
}
