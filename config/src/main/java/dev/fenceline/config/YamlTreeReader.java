package dev.fenceline.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a YAML file into {@link ConfigNode}s that remember their line and column (Jackson's token
 * locations), so every later error can point at the offending key or value.
 */
final class YamlTreeReader {

  private static final YAMLMapper MAPPER = YAMLMapper.builder().build();

  private final Path file;

  private YamlTreeReader(Path file) {
    this.file = file;
  }

  /**
   * Reads {@code file}; an empty file is an empty mapping.
   *
   * @throws ConfigFileException if the file cannot be read, is not YAML, has a duplicate key or its
   *     top level is not a mapping
   */
  static ConfigNode.Mapping read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigFileException(
          "Cannot load " + file + ": the file does not exist (check the path given with --config)",
          new ConfigLocation(file, 1, 1),
          "",
          null);
    } catch (IOException e) {
      throw new ConfigFileException(
          "Cannot load " + file + ": " + e.getMessage() + " (check that the file is readable)",
          new ConfigLocation(file, 1, 1),
          "",
          e);
    }
    return new YamlTreeReader(file).parse(text);
  }

  private ConfigNode.Mapping parse(String text) {
    try (JsonParser parser = MAPPER.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return new ConfigNode.Mapping(new ConfigLocation(file, 1, 1), Map.of());
      }
      ConfigNode root = node(parser, "");
      if (!(root instanceof ConfigNode.Mapping mapping)) {
        throw new ConfigFileException(
            "Cannot load "
                + root.location()
                + ": the file holds "
                + root.kind()
                + ", not a mapping of keys (start with keys such as \"stores:\")",
            root.location(),
            "",
            null);
      }
      return mapping;
    } catch (JacksonException e) {
      ConfigLocation location = location(e.getLocation());
      throw new ConfigFileException(
          "Cannot load "
              + location
              + ": not valid YAML: "
              + firstLine(e.getOriginalMessage())
              + " (check the indentation and quoting around this line)",
          location,
          "",
          null);
    }
  }

  private ConfigNode node(JsonParser parser, String path) {
    ConfigLocation location = location(parser.currentTokenLocation());
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<ConfigNode.Key, ConfigNode> entries = new LinkedHashMap<>();
        Map<String, ConfigLocation> seen = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = parser.currentName();
          ConfigLocation keyLocation = location(parser.currentTokenLocation());
          String keyPath = path.isEmpty() ? name : path + "." + name;
          ConfigLocation earlier = seen.putIfAbsent(name, keyLocation);
          if (earlier != null) {
            throw new ConfigFileException(
                "Cannot configure "
                    + keyPath
                    + " at "
                    + keyLocation
                    + ": the key is given twice, first at line "
                    + earlier.line()
                    + " (remove one of them)",
                keyLocation,
                keyPath,
                null);
          }
          parser.nextToken();
          entries.put(new ConfigNode.Key(name, keyLocation), node(parser, keyPath));
        }
        return new ConfigNode.Mapping(location, entries);
      }
      case START_ARRAY -> {
        List<ConfigNode> items = new ArrayList<>();
        int index = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(node(parser, path + "[" + index++ + "]"));
        }
        return new ConfigNode.Sequence(location, items);
      }
      case VALUE_STRING -> {
        return new ConfigNode.Scalar(location, parser.getString(), ConfigNode.Scalar.Type.STRING);
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return new ConfigNode.Scalar(location, parser.getText(), ConfigNode.Scalar.Type.NUMBER);
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return new ConfigNode.Scalar(location, parser.getText(), ConfigNode.Scalar.Type.BOOLEAN);
      }
      case VALUE_NULL -> {
        return new ConfigNode.Scalar(location, "", ConfigNode.Scalar.Type.NULL);
      }
      default ->
          throw new ConfigFileException(
              "Cannot configure "
                  + path
                  + " at "
                  + location
                  + ": unsupported YAML value "
                  + token
                  + " (write a string, number, boolean, list or mapping)",
              location,
              path,
              null);
    }
  }

  /** The parser's reason without the quoted source lines that follow it (they may hold secrets). */
  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable content";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).strip();
  }

  private ConfigLocation location(TokenStreamLocation location) {
    if (location == null || location == TokenStreamLocation.NA) {
      return new ConfigLocation(file, 1, 1);
    }
    return new ConfigLocation(
        file, Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
  }
}
