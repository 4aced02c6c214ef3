package dev.fenceline.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of the README, as a newcomer copies it (issue 19, item 12): it compiles as it
 * stands, imports included, against the modules (this module's test class path has them all); it
 * names the Maven artifacts of what it imports; and no example, in the README or in a Javadoc
 * example, unwraps {@code tryAcquire(...)} with {@code orElseThrow()}, which throws {@code
 * NoSuchElementException: No value present} whenever another worker holds the lease.
 */
class ReadmeJavaSnippetsTest {

  /**
   * {@code tryAcquire(...)} (or its efficiency twin) unwrapped without handling "held elsewhere".
   */
  static final Pattern UNWRAPPED_ACQUIRE =
      Pattern.compile("tryAcquire(?:ForEfficiency)?\\([^;]*?\\)\\s*\\.\\s*orElseThrow\\(\\s*\\)");

  private final ReadmeJavaBlocks readme = ReadmeJavaBlocks.load();

  @TempDir Path sources;

  @Test
  void everyJavaBlockCompilesAsItStandsImportsIncluded() throws IOException {
    List<ReadmeJavaBlocks.Block> compiled =
        readme.blocks().stream().filter(block -> !block.skeleton()).toList();
    assertThat(compiled).as("Java blocks in README.md").hasSizeGreaterThanOrEqualTo(10);
    List<Path> files = new ArrayList<>();
    for (ReadmeJavaBlocks.Block block : compiled) {
      Path dir = Files.createDirectories(sources.resolve("line-" + block.line()));
      files.add(
          Files.writeString(dir.resolve(block.className() + ".java"), block.compilationUnit()));
    }

    List<String> errors = compile(files);

    assertThat(errors).as("compile errors of the README's Java blocks").isEmpty();
  }

  @Test
  void everyJavaBlockStartsWithItsImportsAndNamesTheirArtifacts() {
    List<String> problems = new ArrayList<>();
    for (ReadmeJavaBlocks.Block block : readme.blocks()) {
      if (block.imports().isEmpty()) {
        problems.add(block.where() + ": the block does not start with its imports");
      }
      for (String imported : block.imports()) {
        ReadmeJavaBlocks.artifactOf(imported)
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
    assertThat(problems).isEmpty();
  }

  @Test
  void noReadmeBlockOrJavadocExampleUnwrapsTryAcquireWithOrElseThrow() throws IOException {
    List<String> problems = new ArrayList<>();
    for (ReadmeJavaBlocks.Block block : readme.blocks()) {
      if (UNWRAPPED_ACQUIRE.matcher(block.text()).find()) {
        problems.add(block.where() + ": tryAcquire(...).orElseThrow()");
      }
    }
    Path root = ReadmeJavaBlocks.repositoryRoot();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file :
          files.filter(Files::isRegularFile).filter(ReadmeJavaSnippetsTest::userFacing).toList()) {
        String text = documentation(file);
        if (UNWRAPPED_ACQUIRE.matcher(text).find()) {
          problems.add(root.relativize(file) + ": tryAcquire(...).orElseThrow() in an example");
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theScanFindsAnUnwrappedAcquireAcrossLines() {
    assertThat(UNWRAPPED_ACQUIRE.matcher("fenceline.tryAcquire(nightly).orElseThrow();").find())
        .isTrue();
    assertThat(
            UNWRAPPED_ACQUIRE
                .matcher("fenceline\n    .tryAcquire(ResourceId.of(\"a\"))\n    .orElseThrow()")
                .find())
        .isTrue();
    assertThat(
            UNWRAPPED_ACQUIRE
                .matcher("tryAcquire(r).orElseThrow(() -> new IllegalStateException(\"held\"))")
                .find())
        .isFalse();
  }

  /** Markdown anywhere, and the main Java sources (their Javadoc examples), not build output. */
  private static boolean userFacing(Path file) {
    String path = file.toString().replace('\\', '/');
    if (path.contains("/target/") || path.contains("/.git/") || path.contains("/src/test/")) {
      return false;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".md") || (name.endsWith(".java") && path.contains("/src/main/java/"));
  }

  /** A Markdown file as it is; of a Java file only its comment lines (Javadoc examples). */
  private static String documentation(Path file) {
    try {
      String text = Files.readString(file, UTF_8);
      if (!file.toString().endsWith(".java")) {
        return text;
      }
      StringBuilder comments = new StringBuilder();
      text.lines()
          .map(String::strip)
          .filter(row -> row.startsWith("*") || row.startsWith("//"))
          .forEach(row -> comments.append(row).append('\n'));
      return comments.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> compile(List<Path> files) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path classes = Files.createTempDirectory("readme-classes");
    try (StandardJavaFileManager fileManager =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, UTF_8)) {
      StringWriter output = new StringWriter();
      javac
          .getTask(
              output,
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
            d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
      }
    }
    return errors;
  }
}
