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
package dev.fenceline.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a command prints: text lines for people, or with {@code --json} one JSON document with the
 * same facts. Every string goes through a mask first, so no secret of the configuration reaches
 * standard output.
 */
final class Report {

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final String command;
  private final Map<String, Object> fields = new LinkedHashMap<>();
  private final List<String> lines = new ArrayList<>();

  Report(String command) {
    this.command = command;
  }

  /** Adds a field of the JSON document. */
  Report put(String key, Object value) {
    fields.put(key, value);
    return this;
  }

  /** Adds a line of the text output. */
  Report line(String text) {
    lines.add(text);
    return this;
  }

  /** Prints the text lines, or the JSON document with the exit status and {@code error}. */
  void print(
      PrintStream out, boolean json, ExitCode exit, String error, UnaryOperator<String> mask) {
    if (json) {
      printJson(out, exit, error, mask);
    } else {
      printLines(out, "", mask);
    }
  }

  /** Prints the text lines, each after {@code prefix}. */
  void printLines(PrintStream to, String prefix, UnaryOperator<String> mask) {
    lines.forEach(line -> to.println(prefix + mask.apply(line)));
    to.flush();
  }

  /**
   * Prints the JSON document: {@code exit-code} and {@code exit} are both {@code exit}'s, the
   * status the process exits with.
   */
  void printJson(PrintStream out, ExitCode exit, String error, UnaryOperator<String> mask) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("command", command);
    document.put("exit-code", exit.code());
    document.put("exit", exit.name());
    if (error != null) {
      document.put("error", error);
    }
    fields.forEach(document::putIfAbsent); // a field never overrides the exit status
    out.println(JSON.writeValueAsString(masked(document, mask)));
    out.flush();
  }

  private static Object masked(Object value, UnaryOperator<String> mask) {
    if (value instanceof String text) {
      return mask.apply(text);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((key, item) -> copy.put(mask.apply(String.valueOf(key)), masked(item, mask)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(item -> masked(item, mask)).toList();
    }
    return value;
  }
}
