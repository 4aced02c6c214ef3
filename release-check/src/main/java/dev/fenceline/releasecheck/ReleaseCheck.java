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
package dev.fenceline.releasecheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The release bundle check, run by {@code mvn -B -Prelease verify} after every published module has
 * been packaged.
 *
 * <p>A module is published unless its pom sets {@code maven.deploy.skip} to {@code true}. For each
 * published module it lists the flattened consumer pom ({@code target/.flattened-pom.xml}) and, for
 * jar modules, the main, sources and javadoc jars, and checks what Maven Central validates: every
 * pom has groupId, artifactId, version, name, description, url, licenses, developers and scm, no
 * {@code ${...}} left, no parent and no build-only parts, and depends only on Fenceline artifacts
 * that are published. Every main jar holds the repository's LICENSE and NOTICE under {@code
 * META-INF/}. The BOM must manage exactly the published modules at the project version. NOTICE must
 * list every third-party artifact that the shaded CLI jar ({@code cli/target/fenceline.jar}) ships,
 * and nothing it does not ship; that jar's {@code META-INF/LICENSE} and {@code NOTICE} start with
 * Fenceline's, and its {@code META-INF/LICENSE}, {@code LICENSE.txt}, {@code NOTICE} and {@code
 * NOTICE.txt} keep the text of each bundled jar's file of that name.
 *
 * <p>Signatures ({@code .asc}) are not checked: they are made at deploy time with the maintainer's
 * key (CONTRIBUTING.md).
 */
public final class ReleaseCheck {

  static final String GROUP_ID = "dev.fenceline";
  static final String BOM = "fenceline-bom";
  static final String CLI = "fenceline-cli";
  static final String SHADED_JAR = "fenceline.jar";
  static final String FLATTENED_POM = ".flattened-pom.xml";

  /** One line of NOTICE's list of bundled components: {@code " groupId:artifactId License"}. */
  private static final Pattern NOTICE_LINE =
      Pattern.compile("^ {2}([A-Za-z0-9_.\\-]+):([A-Za-z0-9_.\\-]+)\\s+(\\S.*)$");

  private static final Pattern LEFTOVER = Pattern.compile("\\$\\{[^}]*}");

  /** The license and notice files a shaded jar must keep from every jar it bundles. */
  static final List<String> LEGAL_FILES =
      List.of("META-INF/LICENSE", "META-INF/LICENSE.txt", "META-INF/NOTICE", "META-INF/NOTICE.txt");

  private ReleaseCheck() {}

  /**
   * Runs the check from the release-check module.
   *
   * @param args the repository root, the project version and, optionally, the file that
   *     maven-dependency-plugin's {@code list} goal wrote for the CLI's runtime dependencies (with
   *     absolute file names)
   * @throws IOException if a file cannot be read
   */
  public static void main(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3) {
      throw new IllegalArgumentException(
          "usage: ReleaseCheck <repository root> <version> [<cli runtime dependency list>], got "
              + List.of(args));
    }
    Path root = Path.of(args[0]).toAbsolutePath().normalize();
    Map<Path, String> cliClasspath =
        args.length == 3 ? readDependencyList(Path.of(args[2])) : Map.of();
    Report report = check(root, args[1], cliClasspath);
    System.out.println(report.listing());
    if (!report.ok()) {
      throw new IllegalStateException(report.failure());
    }
  }

  /**
   * What the check found.
   *
   * @param rows one line per published artifact: its files and their sizes
   * @param problems what is missing or wrong, each naming the file and the fix; empty if the bundle
   *     would pass
   */
  public record Report(List<String> rows, List<String> problems) {

    /** {@return whether no problem was found} */
    public boolean ok() {
      return problems.isEmpty();
    }

    /** {@return the published artifacts, one per line, under a heading} */
    public String listing() {
      return "Release bundle ("
          + rows.size()
          + " published artifacts):\n"
          + String.join("\n", rows);
    }

    /** {@return the problems as one message, one per line} */
    public String failure() {
      return "The release bundle is incomplete ("
          + problems.size()
          + " problem(s)):\n  - "
          + String.join("\n  - ", problems);
    }
  }

  /** A module of the root pom's {@code <modules>}. */
  record Module(String path, String artifactId, String packaging, boolean published) {}

  /**
   * Checks the bundle that {@code mvn -Prelease verify} left in the modules' {@code target}
   * directories.
   *
   * @param root the repository root (the parent pom's directory)
   * @param version the project version every published artifact must have
   * @param cliClasspath the CLI's runtime dependency jars, each with its {@code groupId:artifactId}
   *     (third-party ones are looked for in the shaded jar); empty to rely on the shaded jar's
   *     {@code META-INF/maven} entries only
   * @return the listing and the problems
   * @throws IOException if a file cannot be read
   */
  public static Report check(Path root, String version, Map<Path, String> cliClasspath)
      throws IOException {
    List<String> rows = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    List<Module> modules = modules(root);
    List<Module> published = modules.stream().filter(Module::published).toList();
    if (published.isEmpty()) {
      problems.add("no published module in " + root.resolve("pom.xml"));
    }
    Set<String> publishedIds = new TreeSet<>();
    published.forEach(m -> publishedIds.add(m.artifactId()));
    Map<String, Set<String>> testJars = new TreeMap<>();
    Optional<String> parentDescription =
        text(parse(root.resolve("pom.xml")).getDocumentElement(), "description");

    for (Module module : published) {
      Path target = root.resolve(module.path()).resolve("target");
      String base = module.artifactId() + "-" + version;
      StringBuilder row = new StringBuilder(String.format("  %-32s", module.artifactId()));
      Path pom = target.resolve(FLATTENED_POM);
      row.append(" pom ").append(size(pom));
      if (Files.isRegularFile(pom)) {
        checkPom(pom, module, version, publishedIds, problems, testJars);
        Optional<String> description = text(parse(pom).getDocumentElement(), "description");
        if (description.isPresent() && description.equals(parentDescription)) {
          problems.add(
              module.artifactId()
                  + ": its <description> is the parent's (inherited): give "
                  + module.path()
                  + "/pom.xml its own");
        }
      } else {
        problems.add(
            module.artifactId()
                + ": no flattened consumer pom "
                + root.relativize(pom)
                + " (flatten-maven-plugin runs in the release profile: mvn -B -Prelease verify)");
      }
      if (module.packaging().equals("jar")) {
        requireJar(
            root,
            module,
            target.resolve(base + ".jar"),
            "main",
            n -> n.endsWith(".class"),
            "a .class file",
            row,
            problems);
        requireLegalFiles(root, module, target.resolve(base + ".jar"), problems);
        requireJar(
            root,
            module,
            target.resolve(base + "-sources.jar"),
            "sources",
            n -> n.endsWith(".java"),
            "a .java file",
            row,
            problems);
        requireJar(
            root,
            module,
            target.resolve(base + "-javadoc.jar"),
            "javadoc",
            n -> n.equals("index.html"),
            "index.html",
            row,
            problems);
      } else if (!module.packaging().equals("pom")) {
        problems.add(
            module.artifactId() + ": packaging " + module.packaging() + " is not checked here");
      }
      rows.add(row.toString());
    }

    for (Map.Entry<String, Set<String>> used : testJars.entrySet()) {
      Optional<Module> producer =
          published.stream().filter(m -> m.artifactId().equals(used.getKey())).findFirst();
      if (producer.isPresent()) {
        Path testJar =
            root.resolve(producer.get().path())
                .resolve("target")
                .resolve(used.getKey() + "-" + version + "-tests.jar");
        if (!Files.isRegularFile(testJar)) {
          problems.add(
              used.getValue()
                  + " depend(s) on the test-jar of "
                  + used.getKey()
                  + ", which builds none ("
                  + root.relativize(testJar)
                  + ")");
        }
      }
    }

    published.stream()
        .filter(m -> m.artifactId().equals(BOM))
        .findFirst()
        .ifPresentOrElse(
            bom -> checkBom(root, bom, version, publishedIds, problems),
            () -> problems.add("no published module " + BOM + " in " + root.resolve("pom.xml")));

    modules.stream()
        .filter(m -> m.artifactId().equals(CLI))
        .findFirst()
        .ifPresent(cli -> checkNotice(root, cli, cliClasspath, problems));
    return new Report(rows, problems);
  }

  /**
   * The modules of the root pom's top-level {@code <modules>} (not those of profiles).
   *
   * @param root the repository root
   * @return each module with its artifactId, packaging and whether it is published
   * @throws IOException if a pom cannot be read
   */
  static List<Module> modules(Path root) throws IOException {
    Element project = parse(root.resolve("pom.xml")).getDocumentElement();
    List<Module> modules = new ArrayList<>();
    Optional<Element> list = child(project, "modules");
    if (list.isEmpty()) {
      return modules;
    }
    for (Element entry : children(list.get(), "module")) {
      String path = entry.getTextContent().trim();
      Path pomFile = root.resolve(path).resolve("pom.xml");
      if (!Files.isRegularFile(pomFile)) {
        throw new IllegalStateException("module " + path + " has no pom.xml at " + pomFile);
      }
      Element pom = parse(pomFile).getDocumentElement();
      String artifactId = text(pom, "artifactId").orElse(path);
      String packaging = text(pom, "packaging").orElse("jar");
      boolean skipped =
          child(pom, "properties")
              .flatMap(p -> text(p, "maven.deploy.skip"))
              .map("true"::equals)
              .orElse(false);
      modules.add(new Module(path, artifactId, packaging, !skipped));
    }
    return modules;
  }

  private static void requireJar(
      Path root,
      Module module,
      Path jar,
      String kind,
      Predicate<String> expected,
      String expectedName,
      StringBuilder row,
      List<String> problems)
      throws IOException {
    row.append(" | ").append(kind).append(' ').append(size(jar));
    if (!Files.isRegularFile(jar)) {
      problems.add(
          module.artifactId()
              + ": no "
              + kind
              + " jar "
              + root.relativize(jar)
              + (kind.equals("main")
                  ? ""
                  : " (the release profile attaches it; a module that is not published sets"
                      + " maven.deploy.skip)"));
      return;
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      if (entryNames(zip).stream().noneMatch(expected)) {
        problems.add(
            module.artifactId() + ": " + root.relativize(jar) + " holds no " + expectedName);
      }
    } catch (IOException e) {
      problems.add(module.artifactId() + ": " + root.relativize(jar) + " is not a jar: " + e);
    }
  }

  /**
   * The repository's LICENSE and NOTICE as {@code META-INF/LICENSE} and {@code META-INF/NOTICE} of
   * a module's main jar (the parent pom copies them into every jar module): each entry starts with
   * the first paragraph of the file.
   */
  private static void requireLegalFiles(Path root, Module module, Path jar, List<String> problems)
      throws IOException {
    if (!Files.isRegularFile(jar)) {
      return; // already reported
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (String name : List.of("LICENSE", "NOTICE")) {
        Path source = root.resolve(name);
        String entry = "META-INF/" + name;
        Optional<String> held = entryText(zip, entry);
        if (held.isEmpty()) {
          problems.add(
              module.artifactId()
                  + ": "
                  + root.relativize(jar)
                  + " holds no "
                  + entry
                  + " (the parent pom's license-and-notice execution copies "
                  + name
                  + " there)");
        } else if (Files.isRegularFile(source) && !held.get().strip().startsWith(heading(source))) {
          problems.add(
              module.artifactId()
                  + ": "
                  + root.relativize(jar)
                  + "'s "
                  + entry
                  + " is not the repository's "
                  + name
                  + " (it does not start with \""
                  + heading(source).lines().findFirst().orElse("")
                  + "\")");
        }
      }
    } catch (IOException e) {
      // reported by requireJar
    }
  }

  /** What Maven Central requires of a pom, plus what a consumer pom must not keep. */
  static void checkPom(
      Path pomFile,
      Module module,
      String version,
      Set<String> publishedIds,
      List<String> problems,
      Map<String, Set<String>> testJars)
      throws IOException {
    String id = module.artifactId();
    String raw = Files.readString(pomFile, StandardCharsets.UTF_8);
    Matcher leftover = LEFTOVER.matcher(raw);
    Set<String> leftovers = new TreeSet<>();
    while (leftover.find()) {
      leftovers.add(leftover.group());
    }
    if (!leftovers.isEmpty()) {
      problems.add(id + ": " + pomFile.getFileName() + " keeps unresolved " + leftovers);
    }
    Element project = parse(pomFile).getDocumentElement();
    expectText(project, "groupId", GROUP_ID, id, problems);
    expectText(project, "artifactId", id, id, problems);
    expectText(project, "version", version, id, problems);
    for (String field : List.of("name", "description", "url")) {
      if (text(project, field).isEmpty()) {
        problems.add(id + ": the pom has no <" + field + ">");
      }
    }
    List<Element> licenses =
        child(project, "licenses").map(l -> children(l, "license")).orElse(List.of());
    if (licenses.isEmpty()) {
      problems.add(id + ": the pom has no <licenses><license>");
    }
    for (Element license : licenses) {
      if (text(license, "name").isEmpty() || text(license, "url").isEmpty()) {
        problems.add(id + ": a <license> without <name> and <url>");
      }
    }
    List<Element> developers =
        child(project, "developers").map(d -> children(d, "developer")).orElse(List.of());
    if (developers.isEmpty()) {
      problems.add(id + ": the pom has no <developers><developer>");
    }
    for (Element developer : developers) {
      if (text(developer, "name").isEmpty()) {
        problems.add(id + ": a <developer> without <name>");
      }
    }
    Optional<Element> scm = child(project, "scm");
    if (scm.isEmpty()) {
      problems.add(id + ": the pom has no <scm>");
    } else {
      for (String field : List.of("connection", "developerConnection", "url")) {
        if (text(scm.get(), field).isEmpty()) {
          problems.add(id + ": <scm> has no <" + field + ">");
        }
      }
    }
    for (String buildOnly : List.of("parent", "build", "profiles", "repositories", "modules")) {
      if (child(project, buildOnly).isPresent()) {
        problems.add(
            id + ": the consumer pom keeps <" + buildOnly + "> (it must be flattened away)");
      }
    }
    List<Element> dependencies =
        child(project, "dependencies").map(d -> children(d, "dependency")).orElse(List.of());
    for (Element dependency : dependencies) {
      String coordinates =
          text(dependency, "groupId").orElse("?")
              + ":"
              + text(dependency, "artifactId").orElse("?");
      if (text(dependency, "version").isEmpty()) {
        problems.add(id + ": dependency " + coordinates + " has no version");
      }
      if (text(dependency, "scope").filter("test"::equals).isPresent()) {
        problems.add(id + ": the consumer pom keeps the test dependency " + coordinates);
      }
      if (text(dependency, "groupId").filter(GROUP_ID::equals).isPresent()) {
        String target = text(dependency, "artifactId").orElse("?");
        text(dependency, "version")
            .filter(v -> !v.equals(version))
            .ifPresent(
                v ->
                    problems.add(
                        id + ": depends on " + coordinates + ":" + v + ", not on " + version));
        if (text(dependency, "type").filter("test-jar"::equals).isPresent()) {
          testJars.computeIfAbsent(target, k -> new TreeSet<>()).add(id);
        }
        if (!publishedIds.contains(target)) {
          problems.add(
              id
                  + ": depends on "
                  + coordinates
                  + ", which is not published (its pom sets maven.deploy.skip, or it is no module"
                  + " of the root pom): a consumer could not resolve it; depend on a published"
                  + " module, or publish "
                  + target);
        }
      }
    }
  }

  private static void checkBom(
      Path root, Module bom, String version, Set<String> publishedIds, List<String> problems) {
    Path pom = root.resolve(bom.path()).resolve("target").resolve(FLATTENED_POM);
    if (!Files.isRegularFile(pom)) {
      return; // already reported
    }
    Set<String> managed = new TreeSet<>();
    try {
      Element project = parse(pom).getDocumentElement();
      List<Element> entries =
          child(project, "dependencyManagement")
              .flatMap(d -> child(d, "dependencies"))
              .map(d -> children(d, "dependency"))
              .orElse(List.of());
      for (Element entry : entries) {
        String group = text(entry, "groupId").orElse("?");
        String artifact = text(entry, "artifactId").orElse("?");
        String entryVersion = text(entry, "version").orElse("(none)");
        if (!group.equals(GROUP_ID)) {
          problems.add(
              BOM
                  + " manages "
                  + group
                  + ":"
                  + artifact
                  + ": it must manage Fenceline's artifacts only");
          continue;
        }
        if (!entryVersion.equals(version)) {
          problems.add(
              BOM + " manages " + artifact + " at " + entryVersion + ", not at " + version);
        }
        managed.add(artifact);
      }
    } catch (IOException e) {
      problems.add(BOM + ": cannot read " + pom + ": " + e);
      return;
    }
    Set<String> expected = new TreeSet<>(publishedIds);
    expected.remove(BOM);
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(managed);
    Set<String> extra = new TreeSet<>(managed);
    extra.removeAll(expected);
    if (!missing.isEmpty()) {
      problems.add(
          BOM
              + " does not manage the published module(s) "
              + missing
              + ": add them to bom/pom.xml");
    }
    if (!extra.isEmpty()) {
      problems.add(
          BOM
              + " manages "
              + extra
              + ", which no published module builds: remove them from bom/pom.xml (or publish"
              + " the module)");
    }
  }

  private static void checkNotice(
      Path root, Module cli, Map<Path, String> cliClasspath, List<String> problems) {
    Path jar = root.resolve(cli.path()).resolve("target").resolve(SHADED_JAR);
    Path notice = root.resolve("NOTICE");
    if (!Files.isRegularFile(jar)) {
      problems.add("no shaded CLI jar " + root.relativize(jar) + " to compare NOTICE with");
      return;
    }
    if (!Files.isRegularFile(notice)) {
      problems.add("no NOTICE file at " + notice);
      return;
    }
    try {
      Set<String> shipped = shippedThirdParty(jar, cliClasspath);
      Set<String> listed = noticeListed(notice);
      Set<String> missing = new TreeSet<>(shipped);
      missing.removeAll(listed);
      Set<String> stale = new TreeSet<>(listed);
      stale.removeAll(shipped);
      for (String artifact : missing) {
        problems.add(
            "NOTICE does not list "
                + artifact
                + ", which "
                + root.relativize(jar)
                + " ships: add a line \"  "
                + artifact
                + "  <its license>\" to NOTICE's list of bundled components");
      }
      for (String artifact : stale) {
        problems.add(
            "NOTICE lists "
                + artifact
                + ", which "
                + root.relativize(jar)
                + " does not ship: remove its line from NOTICE");
      }
      checkShadedLegalFiles(root, jar, cliClasspath, shipped, problems);
    } catch (IOException e) {
      problems.add("cannot compare NOTICE with " + jar + ": " + e);
    }
  }

  /**
   * The shaded jar's license texts and notices: Fenceline's LICENSE and NOTICE first in {@code
   * META-INF/LICENSE} and {@code META-INF/NOTICE}, and the text of every {@link #LEGAL_FILES} entry
   * of each bundled jar kept in the shaded jar's entry of that name (shade keeps only the first one
   * unless cli/pom.xml appends them).
   */
  private static void checkShadedLegalFiles(
      Path root,
      Path jar,
      Map<Path, String> cliClasspath,
      Set<String> shipped,
      List<String> problems)
      throws IOException {
    try (ZipFile shaded = new ZipFile(jar.toFile())) {
      for (String name : List.of("LICENSE", "NOTICE")) {
        String entry = "META-INF/" + name;
        String own = heading(root.resolve(name));
        if (!entryText(shaded, entry).orElse("").strip().startsWith(own)) {
          problems.add(
              root.relativize(jar)
                  + "'s "
                  + entry
                  + " does not start with the repository's "
                  + name
                  + " (cli/pom.xml's shade transformers append the bundled jars' "
                  + entry
                  + " to Fenceline's)");
        }
      }
      for (Map.Entry<Path, String> dependency : new TreeMap<>(cliClasspath).entrySet()) {
        if (!shipped.contains(dependency.getValue()) || !Files.isRegularFile(dependency.getKey())) {
          continue;
        }
        try (ZipFile zip = new ZipFile(dependency.getKey().toFile())) {
          for (String entry : LEGAL_FILES) {
            Optional<String> text = entryText(zip, entry).map(String::strip);
            if (text.isPresent()
                && !text.get().isEmpty()
                && !entryText(shaded, entry).orElse("").contains(text.get())) {
              problems.add(
                  root.relativize(jar)
                      + " loses "
                      + entry
                      + " of "
                      + dependency.getValue()
                      + ": append "
                      + entry
                      + " in cli/pom.xml's shade transformers (AppendingTransformer)");
            }
          }
        }
      }
    }
  }

  /** The first paragraph of a text file (up to its first blank line), without leading blanks. */
  private static String heading(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
    int blank = text.indexOf("\n\n");
    return blank < 0 ? text : text.substring(0, blank);
  }

  private static Optional<String> entryText(ZipFile zip, String name) throws IOException {
    ZipEntry entry = zip.getEntry(name);
    if (entry == null || entry.isDirectory()) {
      return Optional.empty();
    }
    try (InputStream in = zip.getInputStream(entry)) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /**
   * The third-party artifacts ({@code groupId:artifactId}) a shaded jar ships: those whose {@code
   * META-INF/maven/.../pom.properties} it holds, and those of the given dependency jars of which it
   * holds at least one class or resource (jars without Maven metadata, such as PostgreSQL's
   * driver). Fenceline's own artifacts are left out.
   *
   * @param shadedJar the shaded jar
   * @param classpath the dependency jars it was built from, each with its {@code
   *     groupId:artifactId}
   * @return the shipped artifacts, sorted
   * @throws IOException if a jar cannot be read
   */
  static Set<String> shippedThirdParty(Path shadedJar, Map<Path, String> classpath)
      throws IOException {
    Set<String> shipped = new TreeSet<>();
    Set<String> entries;
    try (ZipFile zip = new ZipFile(shadedJar.toFile())) {
      entries = entryNames(zip);
    }
    Pattern mavenEntry = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
    for (String entry : entries) {
      Matcher m = mavenEntry.matcher(entry);
      if (m.matches() && !m.group(1).equals(GROUP_ID)) {
        shipped.add(m.group(1) + ":" + m.group(2));
      }
    }
    for (Map.Entry<Path, String> jar : classpath.entrySet()) {
      Path dependency = jar.getKey();
      String coordinates = jar.getValue();
      if (coordinates.startsWith(GROUP_ID + ":")) {
        continue;
      }
      if (!Files.isRegularFile(dependency)) {
        continue; // a reactor module's classes directory: Fenceline's own
      }
      try (ZipFile zip = new ZipFile(dependency.toFile())) {
        for (String entry : entryNames(zip)) {
          if (!entry.startsWith("META-INF/")
              && !entry.endsWith("module-info.class")
              && entries.contains(entry)) {
            shipped.add(coordinates);
            break;
          }
        }
      }
    }
    return shipped;
  }

  /**
   * Reads the output of {@code dependency:list} with {@code outputAbsoluteArtifactFilename}: lines
   * such as {@code " org.slf4j:slf4j-api:jar:2.0.20:compile:/path/slf4j-api-2.0.20.jar"}.
   *
   * @param listFile the file the goal wrote
   * @return the jar files, each with its {@code groupId:artifactId}
   * @throws IOException if the file cannot be read
   */
  static Map<Path, String> readDependencyList(Path listFile) throws IOException {
    Map<Path, String> jars = new LinkedHashMap<>();
    for (String line : Files.readAllLines(listFile, StandardCharsets.UTF_8)) {
      String token = line.trim().split("\\s+")[0];
      String[] parts = token.split(":");
      if (parts.length < 6 || !parts[parts.length - 1].startsWith("/")) {
        continue;
      }
      jars.put(Path.of(parts[parts.length - 1]), parts[0] + ":" + parts[1]);
    }
    if (jars.isEmpty()) {
      throw new IllegalStateException(
          listFile
              + " lists no dependency file (dependency:list needs outputAbsoluteArtifactFilename)");
    }
    return jars;
  }

  /**
   * The {@code groupId:artifactId} entries of NOTICE's list of bundled components: lines indented
   * by two spaces, {@code " groupId:artifactId License"}.
   *
   * @param notice the NOTICE file
   * @return the listed artifacts
   * @throws IOException if the file cannot be read
   */
  static Set<String> noticeListed(Path notice) throws IOException {
    Set<String> listed = new TreeSet<>();
    for (String line : Files.readAllLines(notice, StandardCharsets.UTF_8)) {
      Matcher m = NOTICE_LINE.matcher(line);
      if (m.matches()) {
        listed.add(m.group(1) + ":" + m.group(2));
      }
    }
    return listed;
  }

  private static String size(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      return "MISSING";
    }
    long bytes = Files.size(file);
    return bytes < 10 * 1024 ? bytes + " B" : (bytes / 1024) + " KiB";
  }

  private static Set<String> entryNames(ZipFile zip) {
    Set<String> names = new HashSet<>();
    Enumeration<? extends ZipEntry> all = zip.entries();
    while (all.hasMoreElements()) {
      ZipEntry entry = all.nextElement();
      if (!entry.isDirectory()) {
        names.add(entry.getName());
      }
    }
    return names;
  }

  private static void expectText(
      Element parent, String name, String expected, String id, List<String> problems) {
    Optional<String> actual = text(parent, name);
    if (actual.isEmpty()) {
      problems.add(id + ": the pom has no <" + name + ">");
    } else if (!actual.get().equals(expected)) {
      problems.add(id + ": <" + name + "> is " + actual.get() + ", expected " + expected);
    }
  }

  private static Document parse(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(false);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      DocumentBuilder builder = factory.newDocumentBuilder();
      return builder.parse(in);
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException("cannot parse " + file + ": " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static Optional<Element> child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        found.add(e);
      }
    }
    return found;
  }

  private static Optional<String> text(Element parent, String name) {
    return child(parent, name).map(e -> e.getTextContent().trim()).filter(s -> !s.isEmpty());
  }
}
