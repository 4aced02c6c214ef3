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
package dev.fenceline.tck;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The {@code ```java} blocks of the repository's README.md ({@link #load()}), or of another
 * Markdown page such as a module's {@code docs/<module>.md} ({@link #load(Path)}), compiled and run
 * by the tests as a reader copies them, so what the page shows is what was tested.
 *
 * <p>A block starts with its imports. After them it is either a whole compilation unit (a top-level
 * {@code class}), compiled as it stands, or members (static methods) that {@link
 * Block#compilationUnit} wraps in a class named after the block's line. A block fenced {@code
 * ```java skeleton} is an outline with {@code ...} for the reader's code: its imports and artifacts
 * are checked, it is not compiled. A test that must point an example at its own servers (a test S3
 * endpoint instead of {@code reports-prod}) names each change with {@link Block#replacing}, which
 * fails when the README text it replaces is gone.
 */
public record ReadmeExamples(Path readme, List<ReadmeExamples.Block> blocks) {

  /** The artifact that holds each Fenceline package a README example may import (not the SPI). */
  public static final Map<String, String> ARTIFACT_OF_PACKAGE =
      Map.ofEntries(
          Map.entry("dev.fenceline.core", "fenceline-core"),
          Map.entry("dev.fenceline.core.monitor", "fenceline-core"),
          Map.entry("dev.fenceline.jdbc", "fenceline-jdbc"),
          Map.entry("dev.fenceline.staging", "fenceline-staging"),
          Map.entry("dev.fenceline.vfs", "fenceline-vfs"),
          Map.entry("dev.fenceline.s3", "fenceline-s3"),
          Map.entry("dev.fenceline.zookeeper", "fenceline-zookeeper"),
          Map.entry("dev.fenceline.http", "fenceline-http"),
          Map.entry("dev.fenceline.locking", "fenceline-locking"),
          Map.entry("dev.fenceline.config", "fenceline-config"),
          Map.entry("dev.fenceline.shedlock", "fenceline-shedlock"),
          Map.entry("dev.fenceline.junit", "fenceline-junit"),
          Map.entry("dev.fenceline.tck", "fenceline-tck"),
          Map.entry("dev.fenceline.tck.memory", "fenceline-tck"));

  /** An opening code fence: indentation, the fence itself, and the info string. */
  private static final Pattern FENCE = Pattern.compile("^(\\s*)(```+|~~~+)\\s*([^`]*)$");

  /** A snippet comment, e.g. {@code <!-- snippet: run by cli/src/test/.../DocsTest.java -->}. */
  private static final Pattern SNIPPET_COMMENT =
      Pattern.compile("<!--\\s*snippet:\\s*(.*?)\\s*-->");

  /** The snippet comment of a block that a test compiles and runs. */
  public static final String RUN_BY = "run by ";

  /** The snippet comment of a block that shows lines of a source file. */
  public static final String EXCERPT_OF = "excerpt of ";

  private static final Pattern TOP_LEVEL_CLASS =
      Pattern.compile("^(?:public |abstract |final )*class (\\w+)", Pattern.MULTILINE);

  /** Copies the block list. */
  public ReadmeExamples {
    blocks = List.copyOf(blocks);
  }

  /**
   * One {@code ```java} block.
   *
   * @param line the page line of its first line of code (1-based)
   * @param info the fence's info string after {@code java} ({@code skeleton} or empty)
   * @param text the block's text, the fence's indentation removed
   * @param lead the page's text since the previous Java block
   * @param file the page's file name, for failure messages ({@code README.md})
   * @param snippet what the {@code <!-- snippet: ... -->} comment on the line right before the
   *     fence says ({@code run by cli/src/test/...Test.java}), or empty if there is none
   */
  public record Block(
      int line, String info, String text, String lead, String file, String snippet) {

    /** A block of README.md without a snippet comment. */
    public Block(int line, String info, String text, String lead) {
      this(line, info, text, lead, "README.md");
    }

    /** A block without a snippet comment. */
    public Block(int line, String info, String text, String lead, String file) {
      this(line, info, text, lead, file, "");
    }

    /**
     * The test source (a path from the repository root) that the block's {@code <!-- snippet: run
     * by PATH -->} comment names, if it has one.
     */
    public Optional<String> runBy() {
      return snippetPath(snippet, RUN_BY);
    }

    /**
     * The source file (a path from the repository root) that the block's {@code <!-- snippet:
     * excerpt of PATH -->} comment names, if it has one: the block shows lines of that file.
     */
    public Optional<String> excerptOf() {
      return snippetPath(snippet, EXCERPT_OF);
    }

    /** True for an outline that is not meant to compile. */
    public boolean skeleton() {
      return info.equals("skeleton");
    }

    /** The block's leading {@code import} declarations, without {@code import} and {@code ;}. */
    public List<String> imports() {
      List<String> imports = new ArrayList<>();
      for (String row : text.lines().toList()) {
        if (row.startsWith("import ")) {
          imports.add(row.substring("import ".length(), row.length() - 1).trim());
        } else if (!row.isBlank()) {
          break;
        }
      }
      return imports;
    }

    /** The class the block declares, or the name of the class that wraps its members. */
    public String className() {
      Matcher declared = TOP_LEVEL_CLASS.matcher(text);
      return declared.find() ? declared.group(1) : "ReadmeBlockAtLine" + line;
    }

    /** The block as a Java source file: as it stands, or its members wrapped in a class. */
    public String compilationUnit() {
      if (TOP_LEVEL_CLASS.matcher(text).find()) {
        return text;
      }
      List<String> rows = text.lines().toList();
      int body = 0;
      while (body < rows.size()
          && (rows.get(body).startsWith("import ") || rows.get(body).isBlank())) {
        body++;
      }
      StringBuilder unit = new StringBuilder();
      rows.subList(0, body).forEach(row -> unit.append(row).append('\n'));
      unit.append("public class ").append(className()).append(" {\n");
      rows.subList(body, rows.size()).forEach(row -> unit.append(row).append('\n'));
      return unit.append("}\n").toString();
    }

    /**
     * True if the block's {@code Maven:} line (the last one before it), or the {@code <dependency>}
     * blocks before it where there is no such line, names {@code artifact}.
     */
    public boolean namesArtifact(String artifact) {
      int maven = lead.lastIndexOf("Maven:");
      String coordinates = maven < 0 ? lead : lead.substring(maven);
      return coordinates.contains("`" + artifact + "`")
          || coordinates.contains("<artifactId>" + artifact + "</artifactId>");
    }

    /**
     * The block with each key of {@code replacements} (README text) replaced by its value: where a
     * test points the example at its own servers or files.
     *
     * @throws AssertionError if a key does not occur exactly once (the README changed)
     */
    public Block replacing(Map<String, String> replacements) {
      String replaced = text;
      for (Map.Entry<String, String> entry : new LinkedHashMap<>(replacements).entrySet()) {
        int count = replaced.split(Pattern.quote(entry.getKey()), -1).length - 1;
        if (count != 1) {
          throw new AssertionError(
              where()
                  + ": the text to replace occurs "
                  + count
                  + " times, not once: "
                  + entry.getKey());
        }
        replaced = replaced.replace(entry.getKey(), entry.getValue());
      }
      return new Block(line, info, replaced, lead, file, snippet);
    }

    /**
     * Compiles the block against this JVM's class path and loads it.
     *
     * @throws AssertionError with the compiler's errors if it does not compile
     */
    public Class<?> compile() {
      try {
        Path dir = Files.createTempDirectory("readme-example");
        List<String> errors = compileAll(List.of(this), dir);
        if (!errors.isEmpty()) {
          throw new AssertionError(where() + " does not compile:\n" + String.join("\n", errors));
        }
        ClassLoader loader =
            new URLClassLoader(
                new URL[] {dir.resolve("classes").toUri().toURL()},
                Thread.currentThread().getContextClassLoader());
        return loader.loadClass(className());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (ClassNotFoundException e) {
        throw new AssertionError(where() + ": " + e, e);
      }
    }

    /** Where a failure message points a reader, e.g. {@code README.md:120}. */
    public String where() {
      return file + ":" + line;
    }
  }

  /** Reads the README of the repository the tests run in. */
  public static ReadmeExamples load() {
    return load(repositoryRoot().resolve("README.md"));
  }

  /**
   * Reads the Java blocks of any Markdown page, e.g. {@code
   * repositoryRoot().resolve("docs/shedlock.md")}; its blocks point failures at that file.
   */
  public static ReadmeExamples load(Path markdown) {
    try {
      return new ReadmeExamples(
          markdown, parse(Files.readString(markdown, UTF_8), markdown.getFileName().toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads the Java blocks of every documentation page ({@link #pages()}) together, so that a test
   * finds its example with {@link #containing(String)} wherever the page that shows it lives; each
   * block points failures at its own file ({@code docs/s3.md:42}).
   */
  public static ReadmeExamples loadDocs() {
    Path root = repositoryRoot();
    try {
      List<Block> blocks = new ArrayList<>();
      for (Path page : pages()) {
        blocks.addAll(parse(Files.readString(page, UTF_8), relative(root, page)));
      }
      return new ReadmeExamples(root.resolve("README.md"), blocks);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The repository's documentation pages, whose code blocks the tests compile and check: README.md,
   * CONTRIBUTING.md (when present), every {@code docs/*.md} and every {@code
   * examples/<name>/README.md}, in that order.
   */
  public static List<Path> pages() {
    Path root = repositoryRoot();
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    if (Files.isRegularFile(root.resolve("CONTRIBUTING.md"))) {
      pages.add(root.resolve("CONTRIBUTING.md"));
    }
    try (Stream<Path> docs = Files.list(root.resolve("docs"));
        Stream<Path> examples =
            Files.isDirectory(root.resolve("examples"))
                ? Files.list(root.resolve("examples"))
                : Stream.empty()) {
      docs.filter(page -> page.getFileName().toString().endsWith(".md"))
          .sorted()
          .forEach(pages::add);
      examples
          .map(example -> example.resolve("README.md"))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  /** {@code page} relative to {@code root}, with forward slashes ({@code docs/s3.md}). */
  public static String relative(Path root, Path page) {
    return root.relativize(page).toString().replace('\\', '/');
  }

  /**
   * One fenced code block of a Markdown page, of any language: what the docs tests check.
   *
   * @param file the page, relative to the repository root ({@code docs/cli.md})
   * @param line the page line of the opening fence (1-based)
   * @param language the first word of the fence's info string ({@code java}, {@code yaml}), or
   *     empty for a bare fence
   * @param info the rest of the info string ({@code skeleton}), or empty
   * @param text the block's text, the fence's indentation removed
   * @param snippet what the {@code <!-- snippet: ... -->} comment on the line right before the
   *     fence says, or empty
   */
  public record Fence(
      String file, int line, String language, String info, String text, String snippet) {

    /** Where a failure message points a reader: the fence's line, e.g. {@code docs/cli.md:12}. */
    public String where() {
      return file + ":" + line;
    }

    /** As {@link Block#runBy()}. */
    public Optional<String> runBy() {
      return snippetPath(snippet, RUN_BY);
    }

    /** As {@link Block#excerptOf()}. */
    public Optional<String> excerptOf() {
      return snippetPath(snippet, EXCERPT_OF);
    }
  }

  /**
   * Every fenced code block of {@code markdown} (fences of three or more backticks or tildes,
   * indented or not, as in a list item).
   *
   * @param file the page's name in {@link Fence#where()}
   */
  public static List<Fence> fences(String markdown, String file) {
    List<String> rows = markdown.lines().toList();
    List<Fence> fences = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Matcher open = FENCE.matcher(rows.get(i));
      if (!open.matches()) {
        continue;
      }
      int start = i;
      int indent = open.group(1).length();
      String marker = open.group(2);
      String[] infoWords = open.group(3).strip().split("\\s+", 2);
      StringBuilder text = new StringBuilder();
      for (i++; i < rows.size(); i++) {
        String row = rows.get(i);
        String stripped = row.strip();
        if (stripped.startsWith(marker) && stripped.chars().allMatch(c -> c == marker.charAt(0))) {
          break;
        }
        text.append(
                row.length() >= indent && row.substring(0, indent).isBlank()
                    ? row.substring(indent)
                    : row.strip())
            .append('\n');
      }
      fences.add(
          new Fence(
              file,
              start + 1,
              infoWords[0],
              infoWords.length > 1 ? infoWords[1].strip() : "",
              text.toString(),
              snippetBefore(rows, start)));
    }
    return fences;
  }

  /** The content of a {@code <!-- snippet: ... -->} comment on the line before {@code fence}. */
  private static String snippetBefore(List<String> rows, int fence) {
    if (fence == 0) {
      return "";
    }
    Matcher comment = SNIPPET_COMMENT.matcher(rows.get(fence - 1).strip());
    return comment.matches() ? comment.group(1).strip() : "";
  }

  private static Optional<String> snippetPath(String snippet, String prefix) {
    return snippet.startsWith(prefix)
        ? Optional.of(snippet.substring(prefix.length()).strip())
        : Optional.empty();
  }

  /** The repository's root: the nearest directory at or above the working directory with both. */
  public static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md"))
          && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("Cannot find README.md above " + Path.of("").toAbsolutePath());
  }

  /** The only block whose text contains {@code text}. */
  public Block containing(String text) {
    List<Block> found = blocks.stream().filter(b -> b.text().contains(text)).toList();
    if (found.size() != 1) {
      throw new AssertionError(
          readme.getFileName()
              + " has "
              + found.size()
              + " Java blocks containing "
              + text
              + ", not 1");
    }
    return found.get(0);
  }

  /**
   * Calls the public static method {@code name} of a compiled block.
   *
   * @return what it returned
   * @throws Exception what the method threw
   */
  public static Object call(Class<?> example, String name, Object... args) throws Exception {
    for (Method method : example.getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == args.length) {
        method.setAccessible(true);
        try {
          return method.invoke(null, args);
        } catch (InvocationTargetException e) {
          if (e.getCause() instanceof Exception thrown) {
            throw thrown;
          }
          throw e;
        }
      }
    }
    throw new AssertionError(
        example + " has no method " + name + " with " + args.length + " parameters");
  }

  /**
   * Compiles {@code blocks} together into {@code dir/classes}, one source file each under {@code
   * dir/line-N}.
   *
   * @return the compiler's errors, each with its file and line; empty if all compiled
   */
  public static List<String> compileAll(List<Block> blocks, Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Block block : blocks) {
      Path source = Files.createDirectories(dir.resolve("line-" + block.line()));
      files.add(
          Files.writeString(source.resolve(block.className() + ".java"), block.compilationUnit()));
    }
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fileManager =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, UTF_8)) {
      javac
          .getTask(
              new StringWriter(),
              fileManager,
              diagnostics,
              List.of(
                  "-proc:none",
                  "-Xlint:none",
                  "-d",
                  classes.toString(),
                  "-classpath",
                  System.getProperty("java.class.path")),
              null,
              fileManager.getJavaFileObjectsFromPaths(files))
          .call();
    }
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        errors.add(
            (d.getSource() == null ? "?" : d.getSource().getName())
                + ":"
                + d.getLineNumber()
                + ": "
                + d.getMessage(Locale.ROOT));
      }
    }
    return errors;
  }

  /**
   * What a reader copying the blocks would trip over: a block that does not start with its imports,
   * or that imports a Fenceline package whose artifact the text before it does not name ({@link
   * Block#namesArtifact}).
   *
   * @return one line per problem, each with {@link Block#where()}; empty if there is none
   */
  public List<String> importProblems() {
    List<String> problems = new ArrayList<>();
    for (Block block : blocks) {
      if (block.imports().isEmpty()) {
        problems.add(block.where() + ": the block does not start with its imports");
      }
      for (String imported : block.imports()) {
        artifactOf(imported)
            .filter(artifact -> !block.namesArtifact(artifact))
            .ifPresent(
                artifact ->
                    problems.add(
                        block.where()
                            + ": imports "
                            + imported
                            + " but the text before it does not name `"
                            + artifact
                            + "` (in its Maven: line)"));
      }
    }
    return problems;
  }

  /** The artifact holding {@code imported}'s package, if it is a Fenceline package but the SPI. */
  public static Optional<String> artifactOf(String imported) {
    String name =
        imported.startsWith("static ") ? imported.substring("static ".length()) : imported;
    for (String packageName = name; packageName.contains("."); ) {
      packageName = packageName.substring(0, packageName.lastIndexOf('.'));
      String artifact = ARTIFACT_OF_PACKAGE.get(packageName);
      if (artifact != null) {
        return Optional.of(artifact);
      }
    }
    return Optional.empty(); // the JDK, or the SPI, which every artifact brings
  }

  static List<Block> parse(String markdown, String file) {
    List<String> rows = markdown.lines().toList();
    List<Block> blocks = new ArrayList<>();
    StringBuilder lead = new StringBuilder();
    for (int i = 0; i < rows.size(); i++) {
      String row = rows.get(i);
      String fence = row.strip();
      if (!fence.startsWith("```java")) {
        lead.append(row).append('\n');
        continue;
      }
      int indent = row.indexOf('`');
      StringBuilder text = new StringBuilder();
      int first = i + 2;
      for (i++; i < rows.size() && !rows.get(i).strip().equals("```"); i++) {
        String content = rows.get(i);
        text.append(content.length() >= indent ? content.substring(indent) : content.strip())
            .append('\n');
      }
      blocks.add(
          new Block(
              first,
              fence.substring("```java".length()).strip(),
              text.toString(),
              lead.toString(),
              file,
              snippetBefore(rows, first - 2)));
      lead.setLength(0);
    }
    return blocks;
  }
}
