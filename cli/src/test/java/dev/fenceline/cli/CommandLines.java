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

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code fenceline} command's model for the docs tests (package {@code
 * dev.fenceline.examples}): whether a documented command line parses, and which commands and
 * options exist. Nothing is run.
 */
public final class CommandLines {

  private CommandLines() {}

  /**
   * Why {@code fenceline} would refuse {@code args} (the words after {@code fenceline}) before
   * running anything, or empty if it parses: an unknown command or option, a missing value or a
   * missing required option. {@code demo} is checked with its own parser, {@code help COMMAND} as
   * {@link Main} answers it.
   */
  public static Optional<String> problem(List<String> args) {
    if (args.isEmpty()) {
      return Optional.empty(); // the usage
    }
    String command = args.get(0);
    List<String> rest = args.subList(1, args.size());
    CommandLine cli = model();
    if (command.equals("demo")) {
      try {
        Options.parse("demo", rest.toArray(String[]::new), Demo.VALUED_OPTIONS, Demo.FLAGS);
        return Optional.empty();
      } catch (UsageException e) {
        return Optional.of(e.getMessage());
      }
    }
    if (command.equals("help")) {
      return rest.isEmpty() || (rest.size() == 1 && cli.getSubcommands().containsKey(rest.get(0)))
          ? Optional.empty()
          : Optional.of("help takes one command, not " + rest);
    }
    try {
      cli.parseArgs(args.toArray(String[]::new));
      return Optional.empty();
    } catch (CommandLine.ParameterException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Every command with the long names of its options ({@code --config}) and the labels of its
   * positional parameters ({@code FILE|-}), as the picocli model declares them; {@code demo} with
   * its own parser's options. Help options ({@code --help}) are left out.
   */
  public static Map<String, List<String>> commandsAndOptions() {
    Map<String, List<String>> commands = new LinkedHashMap<>();
    model()
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> options = new ArrayList<>();
              for (OptionSpec option : sub.getCommandSpec().options()) {
                if (!option.usageHelp() && !option.versionHelp()) {
                  options.add(option.longestName());
                }
              }
              sub.getCommandSpec().positionalParameters().forEach(p -> options.add(p.paramLabel()));
              commands.put(name, options);
            });
    List<String> demo = new ArrayList<>();
    new TreeSet<>(Demo.VALUED_OPTIONS).forEach(option -> demo.add("--" + option));
    new TreeSet<>(Demo.FLAGS)
        .stream().filter(flag -> !flag.equals("help")).forEach(flag -> demo.add("--" + flag));
    commands.put("demo", demo);
    return commands;
  }

  /** The exit codes as {@link ExitCode} defines them: number, name and {@code --help} line. */
  public static List<List<String>> exitCodes() {
    return Arrays.stream(ExitCode.values())
        .map(code -> List.of(Integer.toString(code.code()), code.name(), code.description()))
        .toList();
  }

  private static CommandLine model() {
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
    return Main.commandLine(InputStream.nullInputStream(), nowhere, nowhere);
  }
}
