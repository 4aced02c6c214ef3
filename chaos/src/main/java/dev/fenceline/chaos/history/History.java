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
package dev.fenceline.chaos.history;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and writes histories: one {@link Event} per line as a JSON object, UTF-8, absent fields
 * left out (the format is documented in {@code docs/chaos.md#the-history}).
 */
public final class History {

  private static final JsonMapper JSON =
      JsonMapper.builder()
          .changeDefaultPropertyInclusion(
              incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private History() {}

  /** {@return {@code event} as one JSON line, without the line break} */
  public static String toLine(Event event) {
    return JSON.writeValueAsString(event);
  }

  /**
   * Parses one line.
   *
   * @throws IllegalArgumentException naming the problem if the line is not an event
   */
  public static Event parse(String line) {
    try {
      Event event = JSON.readValue(line, Event.class);
      if (event == null || event.type() == null) {
        throw new IllegalArgumentException("the line has no \"type\"");
      }
      return event;
    } catch (JacksonException | NullPointerException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * Reads a history file. A last line cut short (a worker killed while writing it) is skipped; any
   * other bad line is an error naming the file and line.
   *
   * @throws IllegalArgumentException for a bad line, naming the file and line number
   * @throws UncheckedIOException if the file cannot be read
   */
  public static List<Event> read(Path file) {
    List<Event> events = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      String pending = null;
      int pendingNumber = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (pending != null) {
          throw bad(file, pendingNumber, pending, null);
        }
        if (line.isBlank()) {
          continue;
        }
        try {
          events.add(parse(line));
        } catch (IllegalArgumentException e) {
          pending = line;
          pendingNumber = number;
        }
      }
      return events;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read history " + file + ": " + e.getMessage(), e);
    }
  }

  private static IllegalArgumentException bad(Path file, int number, String line, Exception e) {
    String shown = line.length() > 200 ? line.substring(0, 200) + "..." : line;
    return new IllegalArgumentException(
        "Cannot read history "
            + file
            + " line "
            + number
            + ": it is not a history event ("
            + shown
            + "); see docs/chaos.md#the-history",
        e);
  }
}
