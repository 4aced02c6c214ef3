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
package dev.fenceline.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.ConfigKey;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The keys the builders' refusals carry are keys a configuration file can hold. */
class HttpDestinationKeysTest {

  @Test
  void everyKeyARefusalCarriesIsDeclared() throws IllegalAccessException {
    List<String> carried = new ArrayList<>();
    for (Field field : HttpConfigKeys.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        field.setAccessible(true);
        carried.add((String) field.get(null));
      }
    }
    List<String> declared = HttpDestinationKeys.KEYS.stream().map(ConfigKey::name).toList();
    assertThat(carried).hasSizeGreaterThanOrEqualTo(16);
    assertThat(declared).containsAll(carried);
  }
}
