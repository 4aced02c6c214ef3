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

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.tck.ReadmeExamples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The versions {@code versions:set} does not change by itself (CONTRIBUTING.md, "Cutting a
 * release", step 1): the BOM, which has no parent, and the Redis example, which has no Fenceline
 * parent and imports the BOM at a literal version, both stay at the root project's version.
 */
class ExampleVersionsTest {

  private final Path root = ReadmeExamples.repositoryRoot();

  @Test
  void theBomAndTheRedisExamplesBomImportAreAtTheProjectVersion() throws Exception {
    String version = text(pom("pom.xml"), "version");

    assertThat(text(pom("bom/pom.xml"), "version"))
        .as("bom/pom.xml <version> (set it with the root's, CONTRIBUTING.md, Cutting a release)")
        .isEqualTo(version);
    List<String> imports = new ArrayList<>();
    Element example = pom("examples/redis-destination/pom.xml");
    for (Element dependency : descendants(example, "dependency")) {
      if ("dev.fenceline".equals(text(dependency, "groupId"))
          && text(dependency, "version") != null) {
        imports.add(text(dependency, "artifactId") + ":" + text(dependency, "version"));
      }
    }
    assertThat(imports)
        .as(
            "dev.fenceline versions in examples/redis-destination/pom.xml (set them to the root"
                + " pom's %s, CONTRIBUTING.md, Cutting a release)",
            version)
        .containsExactly("fenceline-bom:" + version);
  }

  private Element pom(String path) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(root.resolve(path).toFile()).getDocumentElement();
  }

  /** The trimmed text of an element's direct child, or null. */
  private static String text(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e.getTextContent().trim();
      }
    }
    return null;
  }

  private static List<Element> descendants(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    var nodes = parent.getElementsByTagName(name);
    for (int i = 0; i < nodes.getLength(); i++) {
      found.add((Element) nodes.item(i));
    }
    return found;
  }
}
