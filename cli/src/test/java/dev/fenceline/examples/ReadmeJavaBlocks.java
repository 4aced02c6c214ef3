package dev.fenceline.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ```java} blocks of the repository's README.md, as a reader sees them: the tests
 * compile and run this text, so what the README shows is what was tested.
 *
 * <p>A block starts with its imports. After them it is either a whole compilation unit (a top-level
 * {@code class}), compiled as it stands, or members (methods) that {@link #compilationUnit} wraps
 * in a class named after the block's line. A block fenced {@code ```java skeleton} is an outline
 * with {@code ...} for the reader's code: its imports and artifacts are checked, it is not
 * compiled.
 */
record ReadmeJavaBlocks(Path readme, List<Block> blocks) {

  /** The artifact that holds each package a README example may import. */
  static final Map<String, String> ARTIFACT_OF_PACKAGE =
      Map.ofEntries(
          Map.entry("dev.fenceline.core", "fenceline-core"),
          Map.entry("dev.fenceline.core.monitor", "fenceline-core"),
          Map.entry("dev.fenceline.jdbc", "fenceline-jdbc"),
          Map.entry("dev.fenceline.staging", "fenceline-staging"),
          Map.entry("dev.fenceline.vfs", "fenceline-vfs"),
          Map.entry("dev.fenceline.s3", "fenceline-s3"),
          Map.entry("dev.fenceline.zookeeper", "fenceline-zookeeper"),
          Map.entry("dev.fenceline.http", "fenceline-http"),
          Map.entry("dev.fenceline.config", "fenceline-config"),
          Map.entry("dev.fenceline.tck", "fenceline-tck"),
          Map.entry("dev.fenceline.tck.memory", "fenceline-tck"));

  private static final Pattern TOP_LEVEL_CLASS =
      Pattern.compile("^(?:public |abstract |final )*class (\\w+)", Pattern.MULTILINE);

  /**
   * One {@code ```java} block.
   *
   * @param line the README line of its opening fence (1-based)
   * @param info the fence's info string after {@code java} ({@code skeleton} or empty)
   * @param text the block's text, the fence's indentation removed
   * @param lead the README text since the previous Java block, where its artifacts are named
   */
  record Block(int line, String info, String text, String lead) {

    /** True for an outline that is not meant to compile. */
    boolean skeleton() {
      return info.equals("skeleton");
    }

    /** The block's leading {@code import} declarations, in order. */
    List<String> imports() {
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

    /** The class a compiled block declares, or the wrapper's name. */
    String className() {
      Matcher declared = TOP_LEVEL_CLASS.matcher(text);
      return declared.find() ? declared.group(1) : "ReadmeBlockAtLine" + line;
    }

    /** The block as a Java source file: as it stands, or its members wrapped in a class. */
    String compilationUnit() {
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
      unit.append("class ").append(className()).append(" {\n");
      rows.subList(body, rows.size()).forEach(row -> unit.append(row).append('\n'));
      return unit.append("}\n").toString();
    }

    /**
     * True if the block's {@code Maven:} line (the last one before it), or a {@code <dependency>}
     * block before it if there is no such line, names {@code artifact}.
     */
    boolean namesArtifact(String artifact) {
      int maven = lead.lastIndexOf("Maven:");
      String coordinates = maven < 0 ? lead : lead.substring(maven);
      return coordinates.contains("`" + artifact + "`")
          || coordinates.contains("<artifactId>" + artifact + "</artifactId>");
    }

    /** Where a failure message points a reader. */
    String where() {
      return "README.md:" + line;
    }
  }

  /** Reads the README of the repository this test runs in. */
  static ReadmeJavaBlocks load() {
    Path readme = repositoryRoot().resolve("README.md");
    try {
      return new ReadmeJavaBlocks(readme, parse(Files.readString(readme, UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The repository's root: the nearest directory above the working directory with a README. */
  static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("README.md"))
          && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("Cannot find README.md above " + Path.of("").toAbsolutePath());
  }

  /** The only block declaring {@code className}. */
  Block declaring(String className) {
    List<Block> found = blocks.stream().filter(b -> b.className().equals(className)).toList();
    if (found.size() != 1) {
      throw new AssertionError(
          "README.md has "
              + found.size()
              + " Java blocks declaring class "
              + className
              + ", not 1");
    }
    return found.get(0);
  }

  static List<Block> parse(String markdown) {
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
      int start = i + 1;
      for (i++; i < rows.size() && !rows.get(i).strip().equals("```"); i++) {
        String content = rows.get(i);
        text.append(content.length() >= indent ? content.substring(indent) : content.strip())
            .append('\n');
      }
      blocks.add(
          new Block(
              start,
              fence.substring("```java".length()).strip(),
              text.toString(),
              lead.toString()));
      lead.setLength(0);
    }
    return blocks;
  }

  /** The artifact holding {@code imported}'s package, if it is one of Fenceline's but the SPI. */
  static Optional<String> artifactOf(String imported) {
    String name = imported.startsWith("static ") ? imported.substring(7) : imported;
    String packageName = name.substring(0, name.lastIndexOf('.'));
    while (!packageName.isEmpty()) {
      String artifact = ARTIFACT_OF_PACKAGE.get(packageName);
      if (artifact != null) {
        return Optional.of(artifact);
      }
      if (packageName.equals("dev.fenceline.spi")) {
        return Optional.empty(); // every artifact brings the SPI
      }
      int dot = packageName.lastIndexOf('.');
      packageName = dot < 0 ? "" : packageName.substring(0, dot);
    }
    return Optional.empty();
  }
}
