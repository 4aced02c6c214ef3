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

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One line of the protocol a demo worker speaks on its standard output: a tag, then words and
 * {@code key=value} fields separated by spaces. Workers print nothing else on standard output;
 * diagnostics go to standard error.
 *
 * <ul>
 *   <li>{@code REGISTERED epoch=1 previous=0}: the worker registered its epoch at the destination.
 *   <li>{@code READY epoch=1 pid=4711}: worker A computed its report and now waits for one line on
 *       standard input before it writes.
 *   <li>{@code OUTCOME RejectedStale supplied=1 current=2}: the destination's answer to the
 *       publish; the word is {@code Applied}, {@code AlreadyApplied} or {@code RejectedStale}, and
 *       {@code current} is the epoch the destination has registered after the step.
 *   <li>{@code BELIEF locally-valid=false state=LOST}: what the worker believes about its lease
 *       after publishing (informational).
 *   <li>{@code ERROR <message>}: the worker failed; the rest of the line is the message.
 * </ul>
 *
 * @param tag the first word, such as {@code READY}
 * @param words the other words that are not fields, in order
 * @param fields the {@code key=value} fields, in order
 * @param text everything after the tag, verbatim
 */
record WorkerLine(String tag, List<String> words, Map<String, String> fields, String text) {

  static final String REGISTERED = "REGISTERED";
  static final String READY = "READY";
  static final String OUTCOME = "OUTCOME";
  static final String BELIEF = "BELIEF";
  static final String ERROR = "ERROR";

  /** Validates the line and copies its parts. */
  WorkerLine {
    requireNonNull(tag, "tag is null");
    requireNonNull(text, "text is null");
    words = List.copyOf(words);
    fields = Map.copyOf(fields);
  }

  /** Parses a line as printed by a worker. */
  static WorkerLine parse(String line) {
    String trimmed = line.strip();
    int space = trimmed.indexOf(' ');
    String tag = space < 0 ? trimmed : trimmed.substring(0, space);
    String text = space < 0 ? "" : trimmed.substring(space + 1).strip();
    List<String> words = new ArrayList<>();
    Map<String, String> fields = new LinkedHashMap<>();
    if (!tag.equals(ERROR)) {
      for (String token : text.split(" +")) {
        int equals = token.indexOf('=');
        if (equals > 0) {
          fields.put(token.substring(0, equals), token.substring(equals + 1));
        } else if (!token.isEmpty()) {
          words.add(token);
        }
      }
    }
    return new WorkerLine(tag, words, fields, text);
  }

  /** The first word after the tag, such as the outcome kind of an {@code OUTCOME} line. */
  Optional<String> word() {
    return words.isEmpty() ? Optional.empty() : Optional.of(words.get(0));
  }

  /**
   * The field {@code name} as a number.
   *
   * @throws IllegalArgumentException if the field is missing or not a number
   */
  long number(String name) {
    String value = fields.get(name);
    if (value == null) {
      throw new IllegalArgumentException(
          "Cannot read field " + name + " of worker line \"" + this + "\": it is missing");
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Cannot read field "
              + name
              + " of worker line \""
              + this
              + "\": "
              + Options.quote(value)
              + " is not a number",
          e);
    }
  }

  @Override
  public String toString() {
    return text.isEmpty() ? tag : tag + " " + text;
  }
}
