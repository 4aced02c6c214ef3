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
package dev.fenceline.spring.autoconfigure;

import dev.fenceline.config.ConfigLocation;
import dev.fenceline.config.ConfigTree;
import dev.fenceline.spi.ConfigurationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The {@code fenceline.*} properties of a Spring {@link ConfigurableEnvironment} as a {@link
 * ConfigTree}: every property source in Spring's order of precedence (the first to name a key wins,
 * relaxed names such as {@code FENCELINE_ISSUER} included), each value with its origin ({@code
 * class path resource [application.yaml]:12:5} for a YAML or properties file) and Spring's {@code
 * ${...}} placeholders resolved. The values of placeholders whose names say they hold a secret
 * ({@code ${DB_PASSWORD}}, {@code ${API_TOKEN}}: the rule of {@code ${VAR}} in a file) are the
 * tree's secrets, masked in messages and health details as in a file.
 */
final class SpringConfigTree {

  /** The prefix of Fenceline's keys in the Environment. */
  static final String PREFIX = "fenceline";

  /** What the tree's messages name as its source. */
  static final String SOURCE = "the Spring environment";

  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of(PREFIX);

  /** The name of each {@code ${NAME}} or {@code ${NAME:default}}, nested ones included. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^${}:]+)");

  private SpringConfigTree() {}

  /**
   * The tree of {@code environment}'s {@code fenceline.*} properties.
   *
   * @throws dev.fenceline.config.ConfigFileException if a key is set both as a value and as a
   *     mapping of keys
   * @throws ConfigurationException if a placeholder cannot be resolved
   */
  static ConfigTree read(ConfigurableEnvironment environment) {
    ConfigTree.Builder tree = ConfigTree.builder(SOURCE, PREFIX);
    for (ConfigurationProperty property : properties(environment)) {
      ConfigurationPropertyName name = property.getName();
      ConfigLocation location = location(property.getOrigin(), name);
      Object value = property.getValue();
      if (value instanceof CharSequence text) {
        String resolved = resolve(environment, text.toString(), name, location);
        Matcher placeholder = PLACEHOLDER.matcher(text);
        while (placeholder.find()) {
          String variable = placeholder.group(1).strip();
          tree.variable(variable, environment.getProperty(variable), resolved);
        }
        value = resolved;
      }
      tree.value(path(name), value, location);
    }
    return tree.build();
  }

  /** The names of the entries under {@code fenceline.<section>} ({@code stores}, ...). */
  static Set<String> names(ConfigurableEnvironment environment, String section) {
    Set<String> names = new LinkedHashSet<>();
    for (ConfigurationProperty property : properties(environment)) {
      List<String> path = path(property.getName());
      if (path.size() >= 2 && path.get(0).equals(section)) {
        names.add(path.get(1));
      }
    }
    return names;
  }

  private static List<ConfigurationProperty> properties(ConfigurableEnvironment environment) {
    List<ConfigurationProperty> found = new ArrayList<>();
    Set<ConfigurationPropertyName> seen = new HashSet<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable)) {
        continue;
      }
      iterable.stream()
          .filter(ROOT::isAncestorOf)
          .forEach(
              name -> {
                if (seen.add(name)) {
                  ConfigurationProperty property = source.getConfigurationProperty(name);
                  if (property != null) {
                    found.add(property);
                  }
                }
              });
    }
    return found;
  }

  /** The keys below {@code fenceline}: dashed ({@code renew-every}), {@code [n]} for an index. */
  static List<String> path(ConfigurationPropertyName name) {
    List<String> path = new ArrayList<>();
    for (int i = 1; i < name.getNumberOfElements(); i++) {
      String element = name.getElement(i, ConfigurationPropertyName.Form.DASHED);
      path.add(name.isNumericIndex(i) ? "[" + element + "]" : element);
    }
    return path;
  }

  /**
   * Where Spring read the value: a file's line and column (counted from 1), or the origin's own
   * description (an environment variable, a system property, a test's property source).
   */
  static ConfigLocation location(Origin origin, ConfigurationPropertyName name) {
    Origin found = origin;
    while (found instanceof PropertySourceOrigin source && source.getOrigin() != null) {
      found = source.getOrigin();
    }
    if (found instanceof TextResourceOrigin text && text.getLocation() != null) {
      String resource =
          text.getResource() == null ? "unknown resource" : text.getResource().getDescription();
      return new ConfigLocation(
          resource, text.getLocation().getLine() + 1, text.getLocation().getColumn() + 1);
    }
    return ConfigLocation.of(found == null ? "property " + name : found.toString());
  }

  private static String resolve(
      ConfigurableEnvironment environment,
      String text,
      ConfigurationPropertyName name,
      ConfigLocation location) {
    if (!text.contains("${")) {
      return text;
    }
    try {
      return environment.resolveRequiredPlaceholders(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(
          "Cannot configure "
              + name
              + " at "
              + location
              + ": "
              + e.getMessage()
              + " (set the property or environment variable it names, or give a default:"
              + " ${NAME:default})",
          e);
    }
  }
}
