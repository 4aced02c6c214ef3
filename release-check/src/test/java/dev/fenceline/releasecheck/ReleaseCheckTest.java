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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release check on a small bundle built here: complete, it passes; with one file or field
 * broken, it fails naming what is missing.
 */
class ReleaseCheckTest {

  private static final String VERSION = "1.2.0";
  private static final String LICENSE =
      "\n                 Apache License\n           Version 2.0, January 2004\n\n   TERMS\n";
  private static final String NOTICE =
      "Fenceline\nCopyright the authors\n\nBundled third-party components:\n\n"
          + "  org.example:lib          Apache-2.0\n"
          + "  org.pg:driver            BSD-2-Clause\n";
  private static final String DRIVER_LICENSE = "Copyright the driver authors. BSD-2-Clause.\n";

  @TempDir Path root;
  private Path driverJar;

  @BeforeEach
  void completeBundle() throws IOException {
    write(
        "pom.xml",
        "<project><modules><module>bom</module><module>core</module><module>cli</module>"
            + "<module>integration-tests</module></modules></project>");
    write(
        "bom/pom.xml",
        "<project><artifactId>fenceline-bom</artifactId><packaging>pom</packaging></project>");
    write("core/pom.xml", "<project><artifactId>fenceline-core</artifactId></project>");
    write("cli/pom.xml", "<project><artifactId>fenceline-cli</artifactId></project>");
    write(
        "integration-tests/pom.xml",
        "<project><artifactId>fenceline-integration-tests</artifactId><properties>"
            + "<maven.deploy.skip>true</maven.deploy.skip></properties></project>");

    write(
        "bom/target/.flattened-pom.xml",
        consumerPom(
            "fenceline-bom",
            "<packaging>pom</packaging>",
            "<dependencyManagement><dependencies>"
                + managed("fenceline-core")
                + managed("fenceline-cli")
                + "</dependencies></dependencyManagement>"));
    write("core/target/.flattened-pom.xml", consumerPom("fenceline-core", "", ""));
    write(
        "cli/target/.flattened-pom.xml",
        consumerPom(
            "fenceline-cli",
            "",
            "<dependencies><dependency><groupId>dev.fenceline</groupId>"
                + "<artifactId>fenceline-core</artifactId><version>"
                + VERSION
                + "</version></dependency></dependencies>"));
    write("LICENSE", LICENSE);
    write("NOTICE", NOTICE);
    for (String module : List.of("core", "cli")) {
      String base = module + "/target/fenceline-" + module + "-" + VERSION;
      jar(
          base + ".jar",
          Map.of(
              "dev/fenceline/" + module + "/Main.class",
              "class",
              "META-INF/LICENSE",
              LICENSE,
              "META-INF/NOTICE",
              NOTICE));
      jar(base + "-sources.jar", "dev/fenceline/" + module + "/Main.java");
      jar(base + "-javadoc.jar", "index.html");
    }
    // The shaded jar: one library with Maven metadata, one (the driver) without; Fenceline's
    // LICENSE and NOTICE first, then the driver's license.
    shadedJar(
        LICENSE + DRIVER_LICENSE,
        NOTICE,
        "META-INF/maven/org.example/lib/pom.properties",
        "org/example/lib/Lib.class",
        "org/pg/Driver.class");
    driverJar =
        jar(
            "repo/driver-1.jar",
            Map.of(
                "org/pg/Driver.class", "class",
                "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n",
                "META-INF/LICENSE", DRIVER_LICENSE));
  }

  @Test
  void aCompleteBundlePassesAndListsEveryPublishedArtifact() throws IOException {
    ReleaseCheck.Report report = check();

    assertThat(report.problems()).isEmpty();
    assertThat(report.rows()).hasSize(3);
    assertThat(report.listing())
        .contains("fenceline-bom", "fenceline-core", "fenceline-cli")
        .doesNotContain("integration-tests")
        .doesNotContain("MISSING");
  }

  @Test
  void aMissingJavadocJarIsNamed() throws IOException {
    Files.delete(root.resolve("core/target/fenceline-core-" + VERSION + "-javadoc.jar"));

    ReleaseCheck.Report report = check();

    assertThat(report.problems())
        .singleElement()
        .asString()
        .contains("fenceline-core: no javadoc jar core/target/fenceline-core-1.2.0-javadoc.jar");
    assertThat(report.listing()).contains("javadoc MISSING");
  }

  @Test
  void aSourcesJarWithoutSourcesIsNamed() throws IOException {
    jar("cli/target/fenceline-cli-" + VERSION + "-sources.jar", "README.txt");

    assertThat(check().problems())
        .singleElement()
        .asString()
        .contains("fenceline-cli-1.2.0-sources.jar holds no a .java file");
  }

  @Test
  void aPomWithoutScmOrDevelopersIsNamed() throws IOException {
    String pom = Files.readString(root.resolve("core/target/.flattened-pom.xml"));
    write(
        "core/target/.flattened-pom.xml",
        pom.replaceAll("<scm>.*</scm>", "").replaceAll("<developers>.*</developers>", ""));

    assertThat(check().problems())
        .containsExactlyInAnyOrder(
            "fenceline-core: the pom has no <developers><developer>",
            "fenceline-core: the pom has no <scm>");
  }

  @Test
  void aModuleWithoutItsOwnDescriptionIsNamed() throws IOException {
    write(
        "pom.xml",
        Files.readString(root.resolve("pom.xml"))
            .replace("<modules>", "<description>D</description><modules>"));

    assertThat(check().problems())
        .contains(
            "fenceline-core: its <description> is the parent's (inherited): give core/pom.xml its"
                + " own");
  }

  @Test
  void aPomWithAnUnresolvedPropertyOrAParentIsNamed() throws IOException {
    String pom = Files.readString(root.resolve("cli/target/.flattened-pom.xml"));
    write(
        "cli/target/.flattened-pom.xml",
        pom.replace(
                "<version>" + VERSION + "</version></dependency>",
                "<version>${revision}</version></dependency>")
            .replace(
                "<modelVersion>",
                "<parent><artifactId>fenceline-parent</artifactId></parent><modelVersion>"));

    assertThat(check().problems())
        .anySatisfy(p -> assertThat(p).contains("fenceline-cli", "unresolved [${revision}]"))
        .anySatisfy(p -> assertThat(p).contains("fenceline-cli: the consumer pom keeps <parent>"));
  }

  @Test
  void aBomThatMissesAPublishedModuleOrManagesAnUnpublishedOneIsNamed() throws IOException {
    write(
        "bom/target/.flattened-pom.xml",
        consumerPom(
            "fenceline-bom",
            "<packaging>pom</packaging>",
            "<dependencyManagement><dependencies>"
                + managed("fenceline-core")
                + managed("fenceline-integration-tests")
                + "</dependencies></dependencyManagement>"));

    assertThat(check().problems())
        .containsExactlyInAnyOrder(
            "fenceline-bom does not manage the published module(s) [fenceline-cli]: add them to"
                + " bom/pom.xml",
            "fenceline-bom manages [fenceline-integration-tests], which no published module"
                + " builds: remove them from bom/pom.xml (or publish the module)");
  }

  @Test
  void noticeMustListAJarWithoutMavenMetadataThatTheShadedJarShips() throws IOException {
    write("NOTICE", "Fenceline\n\n  org.example:lib          Apache-2.0\n");

    assertThat(check().problems())
        .singleElement()
        .asString()
        .startsWith("NOTICE does not list org.pg:driver, which cli/target/fenceline.jar ships");
  }

  @Test
  void noticeMustNotListWhatTheShadedJarNoLongerShips() throws IOException {
    shadedJar(LICENSE, NOTICE, "META-INF/maven/org.example/lib/pom.properties");

    assertThat(check().problems())
        .singleElement()
        .asString()
        .startsWith("NOTICE lists org.pg:driver, which cli/target/fenceline.jar does not ship");
  }

  @Test
  void aConsumerPomThatDependsOnAnUnpublishedFencelineArtifactIsNamed() throws IOException {
    String pom = Files.readString(root.resolve("cli/target/.flattened-pom.xml"));
    write(
        "cli/target/.flattened-pom.xml",
        pom.replace(
            "</dependencies>",
            "<dependency><groupId>dev.fenceline</groupId>"
                + "<artifactId>fenceline-integration-tests</artifactId><version>"
                + VERSION
                + "</version></dependency></dependencies>"));

    assertThat(check().problems())
        .singleElement()
        .asString()
        .startsWith(
            "fenceline-cli: depends on dev.fenceline:fenceline-integration-tests, which is not"
                + " published");
  }

  @Test
  void aJarWithoutFencelinesLicenseOrNoticeIsNamed() throws IOException {
    jar(
        "core/target/fenceline-core-" + VERSION + ".jar",
        Map.of("dev/fenceline/core/Main.class", "class", "META-INF/LICENSE", LICENSE));

    assertThat(check().problems())
        .singleElement()
        .asString()
        .startsWith(
            "fenceline-core: core/target/fenceline-core-1.2.0.jar holds no META-INF/NOTICE");
  }

  @Test
  void theShadedJarMustKeepEveryBundledLicenseAfterFencelinesOwn() throws IOException {
    // What shade does without its appending transformers: the first META-INF/LICENSE wins.
    shadedJar(
        DRIVER_LICENSE,
        NOTICE,
        "META-INF/maven/org.example/lib/pom.properties",
        "org/example/lib/Lib.class",
        "org/pg/Driver.class");
    assertThat(check().problems())
        .containsExactly(
            "cli/target/fenceline.jar's META-INF/LICENSE does not start with the repository's"
                + " LICENSE (cli/pom.xml's shade transformers append the bundled jars'"
                + " META-INF/LICENSE to Fenceline's)");

    shadedJar(
        LICENSE,
        NOTICE,
        "META-INF/maven/org.example/lib/pom.properties",
        "org/example/lib/Lib.class",
        "org/pg/Driver.class");
    assertThat(check().problems())
        .containsExactly(
            "cli/target/fenceline.jar loses META-INF/LICENSE of org.pg:driver: append"
                + " META-INF/LICENSE in cli/pom.xml's shade transformers (AppendingTransformer)");
  }

  @Test
  void readsTheDependencyListWithAbsoluteFileNames() throws IOException {
    Path list =
        write(
            "list.txt",
            "\nThe following files have been resolved:\n"
                + "   org.pg:driver:jar:1:runtime:"
                + driverJar
                + " -- module org.pg [auto]\n"
                + "   dev.fenceline:fenceline-core:jar:1.2.0:compile:"
                + root.resolve("core/target/classes")
                + "\n");

    assertThat(ReleaseCheck.readDependencyList(list))
        .containsExactly(
            Map.entry(driverJar, "org.pg:driver"),
            Map.entry(root.resolve("core/target/classes"), "dev.fenceline:fenceline-core"));
  }

  private ReleaseCheck.Report check() throws IOException {
    return ReleaseCheck.check(root, VERSION, Map.of(driverJar, "org.pg:driver"));
  }

  private static String managed(String artifactId) {
    return "<dependency><groupId>dev.fenceline</groupId><artifactId>"
        + artifactId
        + "</artifactId><version>"
        + VERSION
        + "</version></dependency>";
  }

  private static String consumerPom(String artifactId, String packaging, String more) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<project><modelVersion>4.0.0</modelVersion>"
        + "<groupId>dev.fenceline</groupId><artifactId>"
        + artifactId
        + "</artifactId><version>"
        + VERSION
        + "</version>"
        + packaging
        + "<name>N</name><description>D</description><url>https://example.org</url>"
        + "<licenses><license><name>Apache-2.0</name>"
        + "<url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>"
        + "<developers><developer><name>The authors</name></developer></developers>"
        + "<scm><connection>scm:git:https://example.org/x.git</connection>"
        + "<developerConnection>scm:git:ssh://git@example.org/x.git</developerConnection>"
        + "<url>https://example.org/x</url></scm>"
        + more
        + "</project>\n";
  }

  private Path write(String path, String content) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  /** A jar whose entries hold their own names. */
  private Path jar(String path, String... entries) throws IOException {
    Map<String, String> contents = new LinkedHashMap<>();
    for (String entry : entries) {
      contents.put(entry, entry);
    }
    return jar(path, contents);
  }

  private Path jar(String path, Map<String, String> entries) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        zip.putNextEntry(new ZipEntry(entry.getKey()));
        zip.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return file;
  }

  /** cli/target/fenceline.jar with these license and notice texts and these other entries. */
  private void shadedJar(String license, String notice, String... entries) throws IOException {
    Map<String, String> contents = new LinkedHashMap<>();
    contents.put("dev/fenceline/cli/Main.class", "class");
    contents.put("META-INF/maven/dev.fenceline/fenceline-core/pom.properties", "core");
    contents.put("META-INF/LICENSE", license);
    contents.put("META-INF/NOTICE", notice);
    for (String entry : entries) {
      contents.put(entry, entry);
    }
    jar("cli/target/fenceline.jar", contents);
  }
}
