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
