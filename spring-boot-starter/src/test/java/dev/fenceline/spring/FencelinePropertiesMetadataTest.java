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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.config.FencelineConfig;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The IDE metadata the configuration processor generates from {@link FencelineProperties} names
 * exactly the keys {@code fenceline-config} reads at the top of a configuration, each described.
 */
class FencelinePropertiesMetadataTest {

  @Test
  void theMetadataNamesExactlyTheKeysTheConfigurationReads() throws Exception {
    JsonNode metadata;
    try (InputStream json =
        getClass()
            .getClassLoader()
            .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      assertThat(json).as("the configuration processor's output").isNotNull();
      metadata = JsonMapper.builder().build().readTree(json);
    }
    List<String> keys = new ArrayList<>();
    for (JsonNode property : metadata.get("properties")) {
      String name = property.get("name").asString();
      assertThat(name).startsWith("fenceline.");
      assertThat(property.path("description").asString()).as(name).isNotBlank();
      keys.add(name.substring("fenceline.".length()));
    }

    assertThat(new TreeSet<>(keys)).isEqualTo(FencelineConfig.keys());
  }
}
