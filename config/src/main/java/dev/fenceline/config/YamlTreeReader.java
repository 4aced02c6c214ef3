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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLParser;

/**
 * Reads a YAML file into {@link ConfigNode}s that remember their line and column (Jackson's token
 * locations), so every later error can point at the offending key or value.
 *
 * <p>Refused, each at its line and column and named: a file larger than {@value #MAX_BYTES} bytes,
 * bytes that are not UTF-8 (a UTF-8 byte order mark is skipped), a tab in the indentation, nesting
 * deeper than {@value #MAX_DEPTH} levels, aliases ({@code *name}, which would otherwise be read as
 * the string {@code name}), tags other than {@code !!str} ({@code !!binary}, {@code !env}, which
 * would otherwise be dropped), duplicate keys, a second document, an empty file and a top level
 * that is not a mapping. The parser's own errors (unclosed quotes and brackets, bad indentation)
 * are placed where the mistake starts.
 */
final class YamlTreeReader {

  /** The largest configuration file read, in bytes. */
  static final int MAX_BYTES = 1024 * 1024;

  /** The deepest nesting of mappings and lists (the top-level mapping is level 1). */
  static final int MAX_DEPTH = 32;

  private static final YAMLMapper MAPPER = YAMLMapper.builder().build();

  /** The tags that make a value a string, which is what every value is read as. */
  private static final java.util.Set<String> STRING_TAGS =
      java.util.Set.of("!!str", "tag:yaml.org,2002:str");

  private final Path file;
  private final String text;

  private YamlTreeReader(Path file, String text) {
    this.file = file;
    this.text = text;
  }

  /**
   * Reads {@code file}.
   *
   * @throws ConfigFileException if the file cannot be read, is empty, too large, not UTF-8, not
   *     YAML, nested too deeply, has an alias, a duplicate key or a second document, or its top
   *     level is not a mapping
   */
  static ConfigNode.Mapping read(Path file) {
    byte[] bytes;
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        bytes = readPrefix(file);
        throw tooLarge(file, size, bytes);
      }
      bytes = Files.readAllBytes(file);
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
    if (bytes.length > MAX_BYTES) {
      throw tooLarge(file, bytes.length, bytes);
    }
    return new YamlTreeReader(file, decode(file, bytes)).parse();
  }

  private static byte[] readPrefix(Path file) throws IOException {
    try (var in = Files.newInputStream(file)) {
      return in.readNBytes(MAX_BYTES + 1);
    }
  }

  private static ConfigFileException tooLarge(Path file, long size, byte[] bytes) {
    // The line the limit falls on.
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(bytes.length, MAX_BYTES); i++) {
      if (bytes[i] == '\n') {
        line++;
        column = 1;
      } else if ((bytes[i] & 0xC0) != 0x80) {
        column++;
      }
    }
    ConfigLocation location = new ConfigLocation(file, line, column);
    return new ConfigFileException(
        "Cannot load "
            + location
            + ": the file is "
            + size
            + " bytes, more than the limit of "
            + MAX_BYTES
            + " bytes (1 MiB) for a configuration file, reached on this line (is this the right"
            + " file?)",
        location,
        "",
        null);
  }

  /** The text of UTF-8 {@code bytes}, without a byte order mark. */
  private static String decode(Path file, byte[] bytes) {
    if (bytes.length >= 2
        && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
            || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
      ConfigLocation location = new ConfigLocation(file, 1, 1);
      throw new ConfigFileException(
          "Cannot load "
              + location
              + ": the file is not UTF-8, it starts with a UTF-16 byte order mark (save it as"
              + " UTF-8)",
          location,
          "",
          null);
    }
    String text = utf8(file, bytes);
    rejectControlCharacters(file, text);
    return text;
  }

  /** The UTF-8 text of {@code bytes} after a byte order mark, refused at the first bad byte. */
  private static String utf8(Path file, byte[] bytes) {
    int start =
        bytes.length >= 3
                && bytes[0] == (byte) 0xEF
                && bytes[1] == (byte) 0xBB
                && bytes[2] == (byte) 0xBF
            ? 3
            : 0;
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      out.flip();
      String before = out.toString();
      int line = 1;
      int column = 1;
      for (int i = 0; i < before.length(); i++) {
        if (before.charAt(i) == '\n') {
          line++;
          column = 1;
        } else if (!Character.isLowSurrogate(before.charAt(i))) {
          column++;
        }
      }
      ConfigLocation location = new ConfigLocation(file, line, column);
      throw new ConfigFileException(
          "Cannot load "
              + location
              + ": the file is not UTF-8: byte 0x"
              + String.format(Locale.ROOT, "%02X", bytes[in.position()] & 0xFF)
              + " cannot start or continue a UTF-8 character here (save the file as UTF-8; in"
              + " Latin-1 this byte is "
              + new String(new byte[] {bytes[in.position()]}, StandardCharsets.ISO_8859_1)
              + ")",
          location,
          "",
          null);
    }
    try {
      decoder.flush(out);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(e);
    }
    out.flip();
    return out.toString();
  }

  /** Refuses the first control character YAML does not allow, at its line and column. */
  private static void rejectControlCharacters(Path file, String text) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        column = 1;
        continue;
      }
      boolean printable =
          c == '\t'
              || c == '\r'
              || (c >= 0x20 && c <= 0x7E)
              || c == 0x85
              || (c >= 0xA0 && c <= 0xFFFD && c != 0xFEFF);
      if (!printable) {
        ConfigLocation location = new ConfigLocation(file, line, column);
        throw new ConfigFileException(
            "Cannot load "
                + location
                + ": the file holds control character U+"
                + String.format(Locale.ROOT, "%04X", (int) c)
                + " here, which YAML does not allow (remove it; write it as \"\\u"
                + String.format(Locale.ROOT, "%04X", (int) c)
                + "\" inside a double-quoted value if it is meant)",
            location,
            "",
            null);
      }
      if (!Character.isLowSurrogate(c)) {
        column++;
      }
    }
  }

  private ConfigNode.Mapping parse() {
    JsonParser parser = null;
    try {
      parser = MAPPER.createParser(text);
      JsonToken first = parser.nextToken();
      if (first == null) {
        ConfigLocation location = new ConfigLocation(file, 1, 1);
        throw new ConfigFileException(
            "Cannot load "
                + location
                + ": the file is empty"
                + (text.isBlank() ? "" : " (it holds only comments)")
                + " (start with keys such as \"stores:\"; see examples/fenceline.yaml)",
            location,
            "",
            null);
      }
      ConfigNode root = node(parser, "", 1);
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
      JsonToken next = parser.nextToken();
      if (next != null) {
        ConfigLocation location = location(parser.currentTokenLocation());
        throw new ConfigFileException(
            "Cannot load "
                + location
                + ": a second YAML document starts here (after a \"---\"); a configuration file is"
                + " one document (remove the \"---\" line and merge the keys, or split the files)",
            location,
            "",
            null);
      }
      return mapping;
    } catch (JacksonException e) {
      throw syntaxError(e, parser);
    } finally {
      if (parser != null) {
        try {
          parser.close();
        } catch (JacksonException e) {
          // Nothing was left to read.
        }
      }
    }
  }

  private ConfigFileException syntaxError(JacksonException e, JsonParser parser) {
    MarkedYamlEngineException marked = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYamlEngineException m) {
        marked = m;
        break;
      }
    }
    ConfigLocation location = location(e.getLocation());
    if (marked != null && marked.getProblemMark().isPresent()) {
      location = location(marked.getProblemMark().get());
    } else if (e.getLocation() == null || e.getLocation() == TokenStreamLocation.NA) {
      if (parser != null) {
        location = location(parser.currentLocation());
      }
    }
    // A tab in the indentation is the usual cause of whatever the parser says after it.
    ConfigLocation tab = indentationTab(location.line(), location.line() + 1);
    if (tab != null) {
      return new ConfigFileException(
          "Cannot load "
              + tab
              + ": a tab indents this line; YAML allows only spaces for indentation (replace the"
              + " tab with spaces)",
          tab,
          "",
          null);
    }
    Explained explained = explain(e, marked, location);
    return new ConfigFileException(
        "Cannot load "
            + explained.location()
            + ": not valid YAML: "
            + explained.reason()
            + " ("
            + explained.fix()
            + ")",
        explained.location(),
        "",
        null);
  }

  /** What a YAML syntax error means, where it starts, and how to fix it. */
  private record Explained(ConfigLocation location, String reason, String fix) {}

  private Explained explain(
      JacksonException e, MarkedYamlEngineException marked, ConfigLocation location) {
    String problem = marked == null ? firstLine(e.getOriginalMessage()) : marked.getProblem();
    String context = marked == null ? null : marked.getContext();
    String reason;
    String fix;
    if (context != null
        && context.contains("quoted scalar")
        && marked.getContextMark().isPresent()) {
      location = location(marked.getContextMark().get());
      reason = "the quoted value that starts here is not closed (" + problem + ")";
      fix = "add the closing quote on the same line";
    } else if (context != null
        && (context.contains("flow sequence") || context.contains("flow mapping"))
        && marked.getContextMark().isPresent()
        && problem.contains("expected ")) {
      location = location(marked.getContextMark().get());
      boolean sequence = context.contains("flow sequence");
      reason =
          "the "
              + (sequence ? "list opened with \"[\"" : "mapping opened with \"{\"")
              + " here is not closed where it should be ("
              + clean(problem)
              + " at line "
              + location(marked.getProblemMark().orElse(marked.getContextMark().get())).line()
              + ")";
      fix =
          "close it with \"" + (sequence ? "]" : "}") + "\", or quote a value holding , : [ ] { }";
    } else if (problem != null && problem.contains("mapping values are not allowed")) {
      reason =
          "a \": \" here starts a key inside a value: the line is indented deeper than the keys"
              + " above it, or a value holds \": \" unquoted";
      fix = "indent the key like the keys above it, or quote the value, e.g. key: \"a: b\"";
    } else if (context != null && context.contains("block")) {
      reason = "bad indentation: " + clean(problem) + " (" + clean(context) + ")";
      fix = "indent keys of one mapping by the same number of spaces, deeper than their parent";
    } else if (e instanceof tools.jackson.core.exc.StreamConstraintsException) {
      reason = "the document exceeds a parser limit: " + firstLine(e.getOriginalMessage());
      fix = "a configuration file needs no more than " + MAX_DEPTH + " levels";
    } else {
      reason = (context == null ? "" : clean(context) + ": ") + clean(problem);
      fix = "check the indentation and quoting around this line";
    }
    return new Explained(location, reason, fix);
  }

  private static String clean(String message) {
    return firstLine(message).replace("<block end>", "the end of the mapping").replace('\t', ' ');
  }

  /**
   * The first tab in the leading whitespace of lines {@code firstLine} to {@code lastLine}, if any:
   * the parser reports a tab that indents a line at that line or at the end of the one before.
   */
  private ConfigLocation indentationTab(int firstLine, int lastLine) {
    int line = 1;
    int column = 1;
    boolean leading = true;
    for (int i = 0; i < text.length() && line <= lastLine; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        column = 1;
        leading = true;
        continue;
      }
      if (leading && c == '\t' && line >= firstLine) {
        return new ConfigLocation(file, line, column);
      }
      if (c != ' ' && !(c == '-' && leading && nextIsSpace(i))) {
        leading = false;
      }
      column++;
    }
    return null;
  }

  private boolean nextIsSpace(int i) {
    return i + 1 < text.length() && (text.charAt(i + 1) == ' ' || text.charAt(i + 1) == '\t');
  }

  private ConfigNode node(JsonParser parser, String path, int depth) {
    ConfigLocation location = location(parser.currentTokenLocation());
    JsonToken token = parser.currentToken();
    refuseUnsupported(parser, token, location, path, depth);
    switch (token) {
      case START_OBJECT -> {
        return mapping(parser, location, path, depth);
      }
      case START_ARRAY -> {
        List<ConfigNode> items = new ArrayList<>();
        int index = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(node(parser, path + "[" + index++ + "]", depth + 1));
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

  /** A mapping, its keys in file order; a key given twice is refused at its second place. */
  private ConfigNode.Mapping mapping(
      JsonParser parser, ConfigLocation location, String path, int depth) {
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
      entries.put(new ConfigNode.Key(name, keyLocation), node(parser, keyPath, depth + 1));
    }
    return new ConfigNode.Mapping(location, entries);
  }

  /** Refuses nesting past the limit, aliases and tags, where they are written. */
  private static void refuseUnsupported(
      JsonParser parser, JsonToken token, ConfigLocation location, String path, int depth) {
    if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) && depth > MAX_DEPTH) {
      throw new ConfigFileException(
          "Cannot load "
              + location
              + ": the mappings and lists nest deeper than "
              + MAX_DEPTH
              + " levels here, the nesting limit of a configuration file (check for repeated or"
              + " unclosed \"[\" or \"{\", or flatten the structure)",
          location,
          path,
          null);
    }
    if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
      throw new ConfigFileException(
          "Cannot configure "
              + (path.isEmpty() ? "the file" : path)
              + " at "
              + location
              + ": aliases (*name) and merge keys are not supported in a configuration file"
              + " (write the value out; for repeated settings use ${VARIABLE} references)",
          location,
          path,
          null);
    }
    if (parser instanceof YAMLParser yaml && token != JsonToken.PROPERTY_NAME) {
      String tag = tag(yaml);
      if (tag != null && !STRING_TAGS.contains(tag)) {
        throw new ConfigFileException(
            "Cannot configure "
                + (path.isEmpty() ? "the file" : path)
                + " at "
                + location
                + ": YAML tags such as \""
                + tag
                + "\" are not supported in a configuration file (remove the tag; quote a value to"
                + " make it a string)",
            location,
            path,
            null);
      }
    }
  }

  /**
   * The tag of the current value as written ({@code !env}), or in its full form for the standard
   * ones ({@code tag:yaml.org,2002:binary}); null if untagged. Read through {@code getTypeId()},
   * which Jackson 3.1 has too ({@code getRawTag()} does not exist in 3.1, which Spring Boot 4.0
   * manages), and which drops the {@code !} of a local tag.
   */
  private static String tag(YAMLParser yaml) {
    Object typeId = yaml.getTypeId();
    if (typeId == null) {
      return null;
    }
    String tag = typeId.toString();
    return tag.startsWith("tag:") || tag.startsWith("!") ? tag : "!" + tag;
  }

  /** The parser's reason without the quoted source lines that follow it (they may hold secrets). */
  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable content";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).strip();
  }

  private ConfigLocation location(Mark mark) {
    return new ConfigLocation(file, mark.getLine() + 1, mark.getColumn() + 1);
  }

  private ConfigLocation location(TokenStreamLocation location) {
    if (location == null || location == TokenStreamLocation.NA) {
      return new ConfigLocation(file, 1, 1);
    }
    return new ConfigLocation(
        file, Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
  }
}
