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
package dev.fenceline.config;

import java.util.List;
import java.util.Map;

/** A node of the YAML document, with where it starts in the file. */
sealed interface ConfigNode {

  ConfigLocation location();

  /** What a node is, for messages: "a mapping", "a list", "a number". */
  String kind();

  /** A scalar: its text as written, and what YAML made of it. */
  record Scalar(ConfigLocation location, String text, Type type) implements ConfigNode {
    enum Type {
      STRING,
      NUMBER,
      BOOLEAN,
      NULL
    }

    @Override
    public String kind() {
      return switch (type) {
        case STRING -> "a string";
        case NUMBER -> "a number";
        case BOOLEAN -> "a boolean";
        case NULL -> "an empty value";
      };
    }
  }

  /** A key of a mapping, with its own location (an unknown key is reported where it is). */
  record Key(String name, ConfigLocation location) {}

  /** A mapping, keys in file order. */
  record Mapping(ConfigLocation location, Map<Key, ConfigNode> entries) implements ConfigNode {
    @Override
    public String kind() {
      return "a mapping";
    }

    Key key(String name) {
      for (Key key : entries.keySet()) {
        if (key.name().equals(name)) {
          return key;
        }
      }
      return null;
    }

    ConfigNode get(String name) {
      Key key = key(name);
      return key == null ? null : entries.get(key);
    }
  }

  /** A list. */
  record Sequence(ConfigLocation location, List<ConfigNode> items) implements ConfigNode {
    @Override
    public String kind() {
      return "a list";
    }
  }
}
