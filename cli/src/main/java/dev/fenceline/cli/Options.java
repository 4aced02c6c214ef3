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

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The options of one subcommand: {@code --name value} or {@code --name=value}, each at most once,
 * plus value-less flags such as {@code --help}. Anything else is a {@link UsageException} that
 * names the offending argument and the fix.
 */
final class Options {

  private final String command;
  private final Map<String, String> values;
  private final Set<String> flags;

  private Options(String command, Map<String, String> values, Set<String> flags) {
    this.command = command;
    this.values = values;
    this.flags = flags;
  }

  /**
   * Parses {@code args} for {@code command}.
   *
   * @param command the subcommand, for messages
   * @param args the arguments after the subcommand
   * @param valued the option names that take a value, without {@code --}
   * @param flagNames the option names that take no value, without {@code --}
   * @throws UsageException if an argument is unknown, repeated, or lacks its value
   */
  static Options parse(String command, String[] args, Set<String> valued, Set<String> flagNames) {
    Map<String, String> values = new LinkedHashMap<>();
    Set<String> flags = new TreeSet<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new UsageException(
            "Cannot run fenceline "
                + command
                + ": unexpected argument "
                + quote(arg)
                + " (it takes only options: "
                + known(valued, flagNames)
                + "; see fenceline help)");
      }
      String name = arg.substring(2);
      String value = null;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      }
      if (flagNames.contains(name)) {
        if (value != null) {
          throw new UsageException(
              "Cannot read option --"
                  + name
                  + " of fenceline "
                  + command
                  + ": it takes no value, got "
                  + quote(value)
                  + " (write just --"
                  + name
                  + ")");
        }
        flags.add(name);
        continue;
      }
      if (!valued.contains(name)) {
        throw new UsageException(
            "Cannot run fenceline "
                + command
                + ": unknown option "
                + quote("--" + name)
                + " (known options: "
                + known(valued, flagNames)
                + "; see fenceline help)");
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          throw new UsageException(
              "Cannot read option --"
                  + name
                  + " of fenceline "
                  + command
                  + ": it needs a value (write --"
                  + name
                  + " VALUE)");
        }
        value = args[++i];
      }
      if (values.putIfAbsent(name, value) != null) {
        throw new UsageException(
            "Cannot read option --"
                + name
                + " of fenceline "
                + command
                + ": it is given twice (give it once)");
      }
    }
    return new Options(command, values, flags);
  }

  /** True if the value-less option {@code name} was given. */
  boolean flag(String name) {
    return flags.contains(name);
  }

  /** The raw value of option {@code name}, if given. */
  Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /**
   * The value of option {@code name}, required.
   *
   * @throws UsageException if it was not given
   */
  String required(String name, String example) {
    return value(name)
        .orElseThrow(
            () ->
                new UsageException(
                    "Cannot run fenceline "
                        + command
                        + ": option --"
                        + name
                        + " is missing (add e.g. --"
                        + name
                        + " "
                        + example
                        + ")"));
  }

  /**
   * The value of option {@code name} as a path, or {@code fallback}.
   *
   * @throws UsageException if the value is not a valid path
   */
  Path path(String name, Path fallback) {
    Optional<String> raw = value(name);
    if (raw.isEmpty()) {
      return fallback;
    }
    try {
      if (raw.get().isBlank()) {
        throw new InvalidPathException(raw.get(), "the path is empty");
      }
      return Path.of(raw.get());
    } catch (InvalidPathException e) {
      throw new UsageException(
          "Cannot use --"
              + name
              + " "
              + quote(raw.get())
              + ": it is not a valid path, "
              + e.getReason()
              + " (e.g. --"
              + name
              + " ./fenceline-demo)");
    }
  }

  /**
   * The value of option {@code name} as whole milliseconds within {@code [min, max]}, or {@code
   * fallback}.
   *
   * @throws UsageException if the value is not a whole number or out of range
   */
  Duration millis(String name, Duration fallback, long min, long max) {
    Optional<String> raw = value(name);
    if (raw.isEmpty()) {
      return fallback;
    }
    long millis;
    try {
      millis = Long.parseLong(raw.get().trim());
    } catch (NumberFormatException e) {
      throw new UsageException(
          "Cannot use --"
              + name
              + " "
              + quote(raw.get())
              + ": it is not a whole number of milliseconds (e.g. --"
              + name
              + " "
              + fallback.toMillis()
              + ")");
    }
    if (millis < min || millis > max) {
      throw new UsageException(
          "Cannot use --"
              + name
              + " "
              + millis
              + ": it must be between "
              + min
              + " and "
              + max
              + " milliseconds (e.g. --"
              + name
              + " "
              + fallback.toMillis()
              + ")");
    }
    return Duration.ofMillis(millis);
  }

  /**
   * Quotes user input for a message: control characters are escaped so the message stays one line,
   * and long values are cut.
   */
  static String quote(String value) {
    StringBuilder shown = new StringBuilder("\"");
    int limit = Math.min(value.length(), 80);
    for (int i = 0; i < limit; i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        shown.append('\\').append(c);
      } else if (Character.isISOControl(c)) {
        shown.append(String.format("\\u%04x", (int) c));
      } else {
        shown.append(c);
      }
    }
    if (value.length() > limit) {
      shown.append("...");
    }
    return shown.append('"').toString();
  }

  private static String known(Set<String> valued, Set<String> flagNames) {
    Set<String> all = new TreeSet<>(valued);
    all.addAll(flagNames);
    StringBuilder list = new StringBuilder();
    for (String name : all) {
      if (list.length() > 0) {
        list.append(", ");
      }
      list.append("--").append(name);
    }
    return list.length() == 0 ? "none" : list.toString();
  }
}
