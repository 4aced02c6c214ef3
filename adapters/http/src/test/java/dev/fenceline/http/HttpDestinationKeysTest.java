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
