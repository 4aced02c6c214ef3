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
