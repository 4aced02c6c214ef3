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

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} and {@code ${NAME:-default}} in a string value with environment
 * variables, as a shell does: the default applies when the variable is unset or empty; {@code $${}
 * writes a literal {@code ${}.
 */
final class Interpolation {

  private static final Pattern REFERENCE =
      Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}|\\$\\{");

  /** The outcome: the value, and the variables it was made from. */
  record Result(String value, List<String> variables) {}

  /** A reference that cannot be resolved; {@link #problem} and {@link #fix} go into the message. */
  static final class Unresolved extends Exception {
    private static final long serialVersionUID = 1L;
    final String problem;
    final String fix;

    Unresolved(String problem, String fix) {
      super(problem, null, false, false);
      this.problem = problem;
      this.fix = fix;
    }
  }

  private Interpolation() {}

  static Result resolve(String text, Function<String, String> environment) throws Unresolved {
    if (!text.contains("${")) {
      return new Result(text, List.of());
    }
    Matcher matcher = REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    List<String> variables = new ArrayList<>();
    while (matcher.find()) {
      String match = matcher.group();
      String replacement;
      if (match.equals("$${")) {
        replacement = "${";
      } else if (matcher.group(1) == null) {
        throw new Unresolved(
            "the reference after \"${\" is not closed or not a variable name",
            "write ${NAME} or ${NAME:-default}, NAME from letters, digits and _; write $${ for a"
                + " literal ${");
      } else {
        String name = matcher.group(1);
        variables.add(name);
        String value = environment.apply(name);
        if (matcher.group(2) != null) {
          replacement = value == null || value.isEmpty() ? matcher.group(3) : value;
        } else if (value == null) {
          throw new Unresolved(
              "environment variable " + name + " is not set",
              "set " + name + ", or give a default with ${" + name + ":-default}");
        } else {
          replacement = value;
        }
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    matcher.appendTail(out);
    return new Result(out.toString(), List.copyOf(variables));
  }
}
