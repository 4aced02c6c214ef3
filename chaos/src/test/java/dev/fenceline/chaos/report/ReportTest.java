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
package dev.fenceline.chaos.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.chaos.check.CheckResult;
import dev.fenceline.chaos.check.Checker;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.ReceiptView;
import dev.fenceline.chaos.history.Event.Type;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ReportTest {

  private static final long MS = 1_000_000L;

  /** {@code writes} applied writes on each of two resources, one stale rejection, one pause. */
  private static List<Event> history(String resource, int writes) {
    List<Event> h = new ArrayList<>();
    h.add(Event.of(Type.META, 0).meta(Map.of("seed", "42", "destination", "a|b")).build());
    long t = MS;
    long index = 0;
    h.add(Event.of(Type.FAULT, t).fault("pause").target("w1").build());
    for (int i = 0; i < writes; i++) {
      long epoch = 1 + i / 10;
      String op = "job-" + i;
      h.add(
          Event.of(Type.INVOKE, t)
              .process("w" + (i % 3))
              .index(index)
              .f(Event.WRITE)
              .resource(resource)
              .epoch(epoch)
              .operation(op)
              .value(op)
              .build());
      h.add(
          Event.of(Type.OK, t + MS)
              .process("w" + (i % 3))
              .index(index++)
              .f(Event.WRITE)
              .resource(resource)
              .epoch(epoch)
              .operation(op)
              .outcome(Event.APPLIED)
              .receipt(new ReceiptView(epoch, "2026-01-01T00:00:00Z", Map.of()))
              .build());
      t += 2 * MS;
    }
    h.add(
        Event.of(Type.INVOKE, t)
            .process("w9")
            .index(0)
            .f(Event.WRITE)
            .resource(resource)
            .epoch(0)
            .operation("late")
            .value("late")
            .build());
    h.add(
        Event.of(Type.OK, t + MS)
            .process("w9")
            .index(0)
            .f(Event.WRITE)
            .resource(resource)
            .epoch(0)
            .operation("late")
            .outcome(Event.REJECTED_STALE)
            .current(1 + (writes - 1) / 10)
            .build());
    h.add(Event.of(Type.FAULT, t).fault("resume").target("w1").build());
    // the driver's final line: the last write's value, every operation looked up
    Map<String, ReceiptView> lookups = new HashMap<>();
    for (int i = 0; i < writes; i++) {
      lookups.put("job-" + i, new ReceiptView(1 + i / 10, "2026-01-01T00:00:00Z", Map.of()));
    }
    lookups.put("late", null);
    h.add(
        Event.of(Type.FINAL, t + 2 * MS)
            .resource(resource)
            .epoch(1 + (writes - 1) / 10)
            .value("job-" + (writes - 1))
            .lookups(lookups)
            .build());
    return h;
  }

  private static Document parse(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void writesTheReportAndAWellFormedPictureWithEscapedNames(@TempDir Path dir) throws Exception {
    List<Event> history = history("r<0>&\"x\"", 30);
    CheckResult result = Checker.defaults().check(history);

    Path md = Report.write(history, result, dir.resolve("out"));

    String report = Files.readString(md);
    assertThat(md.getFileName().toString()).isEqualTo("report.md");
    assertThat(report)
        .contains("## Checks", "linearizable", "## Counts", "Applied", "epochs.svg")
        .contains("| destination | a\\|b |")
        .contains("| fault: pause | 1 |");
    String svg = Files.readString(dir.resolve("out/epochs.svg"));
    Document doc = parse(svg); // throws if the names were not escaped
    assertThat(doc.getDocumentElement().getNodeName()).isEqualTo("svg");
    assertThat(svg).contains("r&lt;0&gt;&amp;&quot;x&quot;").doesNotContain("r<0>");
    assertThat(doc.getElementsByTagName("circle").getLength()).isEqualTo(30);
    assertThat(doc.getElementsByTagName("path").getLength()).isEqualTo(1); // the stale cross
    assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(1);
    assertThat(svg).contains("<title>pause w1</title>");
  }

  @Test
  void theFirstViolationIsInTheReport(@TempDir Path dir) throws Exception {
    List<Event> history = history("r0", 5);
    history.add(
        Event.of(Type.INVOKE, 500 * MS)
            .process("w7")
            .index(0)
            .f(Event.READ)
            .resource("r0")
            .build());
    history.add(
        Event.of(Type.OK, 501 * MS)
            .process("w7")
            .index(0)
            .f(Event.READ)
            .resource("r0")
            .outcome(Event.FOUND)
            .value("never-written")
            .build());
    CheckResult result = Checker.defaults().check(history);

    String report = Files.readString(Report.write(history, result, dir));

    assertThat(report)
        .startsWith("# Chaos run: FAIL")
        .contains("## First violation", "`linearizable`", "resource `r0`", "w7#0", "never-written");
  }

  @Test
  void aBigHistoryIsDownsampledToABoundedPicture() throws Exception {
    List<Event> history = history("r0", 60_000);

    String svg = Report.svg(history);

    Document doc = parse(svg);
    assertThat(doc.getElementsByTagName("circle").getLength())
        .isLessThanOrEqualTo(Report.MAX_MARKS);
    assertThat(svg.length()).isLessThan(3_000_000);
    assertThat(svg).contains("showing 1 in 4 of 60001 marks");
  }
}
