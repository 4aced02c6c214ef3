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
package dev.fenceline.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.fenceline.cli.CommandLines;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The snippet rules of the documentation (issue 22; {@code /work/wt/briefs/snippets.md} rules 1–4),
 * each a function from a page's fenced blocks to problems. A problem is one line, {@code page:line:
 * rule N: what is wrong (the fix)}, so a failing test names the page, the line and the rule.
 */
final class DocsRules {

  /** {@code containing("...")}: a {@link ReadmeExamples} lookup in a test source. */
  private static final Pattern LOOKUP =
      Pattern.compile("containing\\(\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** An elided part of an excerpt: {@code // ...} (Java) or {@code -- ...} (Lua). */
  private static final Pattern ELISION = Pattern.compile("(//|--)\\s*\\.\\.\\.?\\s*");

  /** Pages whose Java needs a class path the cli module lacks: their own module compiles them. */
  static final Set<String> OWN_MODULE_PAGES =
      Set.of("docs/spring-boot.md", "docs/shedlock.md", "docs/junit.md");

  private final Path root;

  DocsRules(Path root) {
    this.root = root;
  }

  /**
   * Rule 1 on one {@code ```java} block: it carries a snippet comment, and the comment holds: the
   * test it names exists and looks the block up with {@code containing("S")}, S a text of the
   * block; or every line of the excerpt occurs in the named source, in order.
   */
  List<String> javaProblems(ReadmeExamples.Fence fence) {
    List<String> problems = new ArrayList<>();
    String where = fence.where() + ": rule 1: ";
    Optional<String> runBy = fence.runBy();
    Optional<String> excerptOf = fence.excerptOf();
    if (runBy.isEmpty() && excerptOf.isEmpty()) {
      problems.add(
          where
              + "the ```java block has no snippet comment (put `<!-- snippet: run by TEST -->` or"
              + " `<!-- snippet: excerpt of SOURCE -->` on the line right before its fence; was: "
              + (fence.snippet().isEmpty() ? "none" : "\"" + fence.snippet() + "\"")
              + ")");
      return problems;
    }
    if (runBy.isPresent()) {
      Optional<String> test = read(runBy.get());
      if (test.isEmpty()) {
        problems.add(where + "the test it is run by does not exist: " + runBy.get());
        return problems;
      }
      List<String> lookups = lookups(test.get());
      if (lookups.stream().noneMatch(fence.text()::contains)) {
        problems.add(
            where
                + runBy.get()
                + " does not look this block up: none of its containing(\"...\") texts "
                + lookups
                + " occurs in the block (add a lookup of a text of this block to that test, or"
                + " name the test that runs it)");
      }
    } else {
      Optional<String> source = read(excerptOf.get());
      if (source.isEmpty()) {
        problems.add(where + "the source it is an excerpt of does not exist: " + excerptOf.get());
        return problems;
      }
      excerptMismatch(fence.text(), source.get())
          .ifPresent(
              row ->
                  problems.add(
                      where
                          + "this line of the excerpt does not occur in "
                          + excerptOf.get()
                          + " (after the lines before it): "
                          + row
                          + " (copy the source's line, or write `// ...` for elided code)"));
    }
    return problems;
  }

  /**
   * The first line of {@code excerpt} (stripped, not blank, not a {@code // ...} elision) that is
   * not a line of {@code source} (stripped) after the lines matched before it.
   */
  static Optional<String> excerptMismatch(String excerpt, String source) {
    List<String> rows = source.lines().map(String::strip).toList();
    int next = 0;
    for (String row : excerpt.lines().map(String::strip).toList()) {
      if (row.isEmpty() || ELISION.matcher(row).matches()) {
        continue;
      }
      int found = -1;
      for (int i = next; i < rows.size(); i++) {
        if (rows.get(i).equals(row)) {
          found = i;
          break;
        }
      }
      if (found < 0) {
        return Optional.of(row);
      }
      next = found + 1;
    }
    return Optional.empty();
  }

  /** The texts a test looks blocks up with: the arguments of its {@code containing("...")}. */
  static List<String> lookups(String testSource) {
    List<String> lookups = new ArrayList<>();
    Matcher lookup = LOOKUP.matcher(testSource);
    while (lookup.find()) {
      lookups.add(lookup.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    return lookups;
  }

  /**
   * Rule 2 on one {@code ```yaml} block: it loads as a Fenceline configuration (a Spring {@code
   * application.yaml}'s {@code fenceline:} subtree), every key known; or it is marked {@code run
   * by} a test that exists and names this page.
   */
  List<String> yamlProblems(ReadmeExamples.Fence fence, Path scratch) {
    String where = fence.where() + ": rule 2: ";
    Optional<String> runBy = fence.runBy();
    if (runBy.isPresent()) {
      Optional<String> test = read(runBy.get());
      if (test.isEmpty()) {
        return List.of(where + "the test it is run by does not exist: " + runBy.get());
      }
      String page = fence.file();
      if (!test.get().contains(page)) {
        return List.of(
            where + runBy.get() + " does not read " + page + " (it never names the page)");
      }
      return List.of();
    }
    String yaml = fenceline(fence.text());
    try {
      Path file = Files.writeString(scratch.resolve("block.yaml"), yaml, UTF_8);
      try (FencelineConfig config = FencelineConfig.load(file, name -> "docs-placeholder")) {
        config.destinationNames(); // loaded and checked, nothing opened
      }
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      return List.of(
          where
              + "the block is not a Fenceline configuration: "
              + oneLine(e.getMessage())
              + " (write a fragment with its parents so that it loads, or mark it"
              + " `<!-- snippet: run by TEST -->` for the test that loads it)");
    }
  }

  /** The {@code fenceline:} subtree of a Spring {@code application.yaml}, else {@code yaml}. */
  static String fenceline(String yaml) {
    List<String> rows = yaml.lines().toList();
    int start = rows.indexOf("fenceline:");
    if (start < 0) {
      return yaml;
    }
    StringBuilder subtree = new StringBuilder();
    for (String row : rows.subList(start + 1, rows.size())) {
      if (!row.isBlank() && !Character.isWhitespace(row.charAt(0)) && !row.startsWith("#")) {
        break; // the next top-level key
      }
      subtree.append(row.length() >= 2 ? row.substring(2) : row.strip()).append('\n');
    }
    return subtree.toString();
  }

  /**
   * Rule 3 on one {@code ```bash} block: every command line that runs {@code fenceline} or {@code
   * ./fenceline} parses with the command's model.
   */
  List<String> bashProblems(ReadmeExamples.Fence fence) {
    List<String> problems = new ArrayList<>();
    for (CommandAt command : fencelineCommands(fence)) {
      CommandLines.problem(command.args())
          .ifPresent(
              problem ->
                  problems.add(
                      fence.file()
                          + ":"
                          + command.line()
                          + ": rule 3: fenceline "
                          + String.join(" ", command.args())
                          + " does not parse: "
                          + oneLine(problem)
                          + " (see docs/cli.md)"));
    }
    return problems;
  }

  /** A {@code fenceline} command line of a block: its page line and its arguments. */
  record CommandAt(int line, List<String> args) {}

  /** The {@code fenceline} commands of a bash block, continuation lines joined. */
  static List<CommandAt> fencelineCommands(ReadmeExamples.Fence fence) {
    List<CommandAt> commands = new ArrayList<>();
    List<String> rows = fence.text().lines().toList();
    for (int i = 0; i < rows.size(); i++) {
      int first = i;
      StringBuilder command = new StringBuilder(rows.get(i));
      while (command.toString().endsWith("\\") && i + 1 < rows.size()) {
        command.setLength(command.length() - 1);
        command.append(' ').append(rows.get(++i));
      }
      for (List<String> args : fencelineCommands(command.toString())) {
        commands.add(new CommandAt(fence.line() + 1 + first, args));
      }
    }
    return commands;
  }

  /**
   * The arguments of each {@code fenceline} or {@code ./fenceline} command in one shell line: the
   * words after it up to the first operator ({@code |}, {@code ;}, {@code &}, a redirection, a
   * parenthesis) or comment, quotes removed.
   */
  static List<List<String>> fencelineCommands(String line) {
    List<List<String>> commands = new ArrayList<>();
    List<String> current = null;
    for (String word : shellWords(line)) {
      if (word.equals(OPERATOR)) {
        current = null;
      } else if (current != null) {
        current.add(word);
      } else if (word.equals("fenceline") || word.equals("./fenceline")) {
        current = new ArrayList<>();
        commands.add(current);
      }
    }
    return commands;
  }

  /** Stands for a shell operator in {@link #shellWords}. */
  private static final String OPERATOR = "\u0000operator";

  /** A shell line split into words (quotes and escapes removed) and {@link #OPERATOR}s. */
  static List<String> shellWords(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        end = end < 0 ? line.length() : end;
        word.append(line, i + 1, end);
        inWord = true;
        i = end;
      } else if (c == '"') {
        int j = i + 1;
        for (; j < line.length() && line.charAt(j) != '"'; j++) {
          if (line.charAt(j) == '\\'
              && j + 1 < line.length()
              && "$`\"\\".indexOf(line.charAt(j + 1)) >= 0) {
            j++; // in double quotes a backslash escapes only these
          }
          word.append(line.charAt(j));
        }
        inWord = true;
        i = j;
      } else if (c == '\\' && i + 1 < line.length()) {
        word.append(line.charAt(++i));
        inWord = true;
      } else if (c == '$' && i + 1 < line.length() && line.charAt(i + 1) == '(') {
        int depth = 0;
        int j = i + 1;
        for (; j < line.length(); j++) {
          depth += line.charAt(j) == '(' ? 1 : line.charAt(j) == ')' ? -1 : 0;
          if (depth == 0) {
            break;
          }
        }
        word.append(line, i, Math.min(j + 1, line.length()));
        inWord = true;
        i = j;
      } else if (c == '#' && !inWord) {
        break;
      } else if (Character.isWhitespace(c) || "|;&()<>".indexOf(c) >= 0) {
        boolean redirection = c == '<' || c == '>';
        if (inWord && !(redirection && word.toString().matches("[0-9]+"))) {
          words.add(word.toString());
        }
        word.setLength(0);
        inWord = false;
        if (!Character.isWhitespace(c)) {
          words.add(OPERATOR);
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /**
   * Rule 4 on one {@code ```xml} block with {@code <dependency>}: each {@code dev.fenceline}
   * artifact is one the BOM lists (or the BOM itself), at the project's version or without one.
   */
  List<String> xmlProblems(ReadmeExamples.Fence fence) {
    if (!fence.text().contains("<dependency>")) {
      return List.of();
    }
    String where = fence.where() + ": rule 4: ";
    List<String> problems = new ArrayList<>();
    Document block;
    try {
      block = parseXml("<block>" + fence.text() + "</block>");
    } catch (IllegalArgumentException e) {
      return List.of(where + "the block is not well-formed XML: " + oneLine(e.getMessage()));
    }
    Set<String> managed = bomArtifacts();
    String bom =
        text(parseXml(read("bom/pom.xml").orElseThrow()).getDocumentElement(), "artifactId");
    String version = projectVersion();
    NodeList dependencies = block.getElementsByTagName("dependency");
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      if (!"dev.fenceline".equals(text(dependency, "groupId"))) {
        continue;
      }
      String artifact = text(dependency, "artifactId");
      String declared = text(dependency, "version");
      if (!managed.contains(artifact) && !artifact.equals(bom)) {
        problems.add(
            where
                + "dev.fenceline:"
                + artifact
                + " is not an artifact the BOM lists (bom/pom.xml has "
                + managed
                + ")");
      }
      if (declared != null && !declared.equals(version)) {
        problems.add(
            where
                + "dev.fenceline:"
                + artifact
                + " has version "
                + declared
                + ", not the project's "
                + version
                + " (write "
                + version
                + ", or leave the version out and import the BOM)");
      }
    }
    return problems;
  }

  /** The {@code dev.fenceline} artifacts that bom/pom.xml manages. */
  Set<String> bomArtifacts() {
    Document bom = parseXml(read("bom/pom.xml").orElseThrow());
    Set<String> artifacts = new TreeSet<>();
    NodeList dependencies = bom.getElementsByTagName("dependency");
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      String group = text(dependency, "groupId");
      if ("dev.fenceline".equals(group) || "${project.groupId}".equals(group)) {
        artifacts.add(text(dependency, "artifactId"));
      }
    }
    return artifacts;
  }

  /** The root pom's version. */
  String projectVersion() {
    return text(parseXml(read("pom.xml").orElseThrow()).getDocumentElement(), "version");
  }

  /** The root pom's {@code <module>}s, in order. */
  List<String> modules() {
    NodeList modules =
        parseXml(read("pom.xml").orElseThrow()).getDocumentElement().getElementsByTagName("module");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < modules.getLength(); i++) {
      names.add(modules.item(i).getTextContent().strip());
    }
    return names;
  }

  /** The text of {@code parent}'s direct child {@code name}, or null. */
  private static String text(Element parent, String name) {
    for (org.w3c.dom.Node child = parent.getFirstChild();
        child != null;
        child = child.getNextSibling()) {
      if (child instanceof Element element && element.getTagName().equals(name)) {
        return element.getTextContent().strip();
      }
    }
    return null;
  }

  private static Document parseXml(String xml) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    } catch (Exception e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** A repository file's text, if it exists. */
  Optional<String> read(String path) {
    Path file = root.resolve(path).normalize();
    if (!file.startsWith(root) || !Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Files.readString(file, UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String oneLine(String message) {
    return String.valueOf(message).replaceAll("\\s*\\R\\s*", " ").strip();
  }

  /** The language of a fence, lowercase ({@code sh} and {@code shell} read as {@code bash}). */
  static String language(ReadmeExamples.Fence fence) {
    String language = fence.language().toLowerCase(Locale.ROOT);
    return Set.of("sh", "shell").contains(language)
        ? "bash"
        : language.equals("yml") ? "yaml" : language;
  }
}
