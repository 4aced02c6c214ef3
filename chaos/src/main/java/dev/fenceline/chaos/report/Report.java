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

import static java.util.Objects.requireNonNull;

import dev.fenceline.chaos.check.Check;
import dev.fenceline.chaos.check.CheckResult;
import dev.fenceline.chaos.check.Counts;
import dev.fenceline.chaos.check.Violation;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.Type;
import dev.fenceline.chaos.history.History;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes a run's report: {@code report.md} (settings, counts, checks, the first violation) and
 * {@code epochs.svg} (one lane per resource over time: the registered epoch as a step line, applied
 * writes as dots coloured per worker, stale rejections as crosses, unknown outcomes hollow, faults
 * as shaded bands). The picture is plain SVG written by hand; with more than {@value #MAX_MARKS}
 * marks it shows every n-th so the file stays small.
 */
public final class Report {

  /** The most marks (dots, crosses, circles) the picture draws. */
  static final int MAX_MARKS = 20_000;

  /** Bands narrower than this many pixels get no label (their tooltip names them). */
  private static final double LABEL_MIN_WIDTH = 30;

  private static final int WIDTH = 1200;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int LANE = 110;
  private static final String[] PALETTE = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf"
  };

  private Report() {}

  /**
   * Writes {@code report.md} and {@code epochs.svg} into {@code dir} (created if missing).
   *
   * @return the path of {@code report.md}
   * @throws UncheckedIOException naming the file if it cannot be written
   */
  public static Path write(List<Event> history, CheckResult result, Path dir) {
    requireNonNull(history, "history is null");
    requireNonNull(result, "result is null");
    requireNonNull(dir, "dir is null");
    Path md = dir.resolve("report.md");
    Path svg = dir.resolve("epochs.svg");
    try {
      Files.createDirectories(dir);
      Files.writeString(svg, svg(history), StandardCharsets.UTF_8);
      Files.writeString(md, markdown(history, result), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the chaos report to " + dir + ": " + e.getMessage(), e);
    }
    return md;
  }

  static String markdown(List<Event> history, CheckResult result) {
    StringBuilder out = new StringBuilder();
    String verdict =
        result.passed()
            ? "PASS"
            : result.gaveUp() ? "UNKNOWN (not every check could decide)" : "FAIL";
    out.append("# Chaos run: ").append(verdict).append("\n\n");
    Map<String, String> meta = new TreeMap<>();
    for (Event e : history) {
      if (e.type() == Type.META && e.meta() != null) {
        meta.putAll(e.meta());
      }
    }
    out.append("## Settings\n\n");
    if (meta.isEmpty()) {
      out.append("The history has no META line.\n\n");
    } else {
      out.append("| setting | value |\n|---|---|\n");
      meta.forEach((k, v) -> row(out, k, v));
      out.append('\n');
    }
    out.append("## Checks\n\n| check | status | detail |\n|---|---|---|\n");
    for (Check c : result.checks()) {
      row(out, c.name(), c.status().name(), c.detail());
    }
    out.append('\n');
    Counts counts = result.counts();
    out.append("## Counts\n\n| operation | outcome | count |\n|---|---|---|\n");
    counts
        .operations()
        .forEach((f, m) -> m.forEach((outcome, n) -> row(out, f, outcome, Long.toString(n))));
    out.append('\n');
    out.append("| what | count |\n|---|---|\n");
    counts.faults().forEach((kind, n) -> row(out, "fault: " + kind, Long.toString(n)));
    row(out, "takeovers (previous holder had not released)", Long.toString(counts.takeovers()));
    row(out, "stale rejections", Long.toString(counts.staleRejections()));
    row(out, "unknown writes landed", Long.toString(counts.unknownsLanded()));
    row(out, "unknown writes not landed", Long.toString(counts.unknownsNotLanded()));
    row(out, "unknown writes unresolved", Long.toString(counts.unknownsUnresolved()));
    row(out, "linearizability search (ms)", Long.toString(counts.linearizabilityMillis()));
    out.append('\n');
    out.append("## First violation\n\n");
    if (result.firstViolation().isEmpty()) {
      out.append("None.\n\n");
    } else {
      Violation v = result.firstViolation().get();
      out.append("Check `")
          .append(v.check())
          .append("`, resource `")
          .append(v.resource())
          .append("`: ")
          .append(v.message().replace("\n", " "))
          .append("\n\nThe lines of that resource around it:\n\n```json\n");
      for (Event e : v.around()) {
        out.append(History.toLine(e).replace("```", "'''")).append('\n');
      }
      out.append("```\n\n");
    }
    out.append("## Picture\n\n![epochs per resource over time](epochs.svg)\n\n")
        .append(
            "One lane per resource: the registered epoch as a step line, applied writes as dots"
                + " (one colour per worker), stale rejections as crosses, writes with an unknown"
                + " outcome as hollow circles, faults as shaded bands.\n");
    return out.toString();
  }

  private static void row(StringBuilder out, String... cells) {
    out.append('|');
    for (String c : cells) {
      out.append(' ')
          .append(c == null ? "" : c.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " "))
          .append(" |");
    }
    out.append('\n');
  }

  /** {@return {@code text} safe inside SVG/XML text and attribute values} */
  static String escape(String text) {
    StringBuilder s = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> s.append("&amp;");
        case '<' -> s.append("&lt;");
        case '>' -> s.append("&gt;");
        case '"' -> s.append("&quot;");
        case '\'' -> s.append("&apos;");
        default -> {
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            s.append('?'); // not allowed in XML 1.0
          } else {
            s.append(c);
          }
        }
      }
    }
    return s.toString();
  }

  private record Mark(String resource, long t, long epoch, String kind, String process) {}

  static String svg(List<Event> history) {
    long t0 = Long.MAX_VALUE;
    long t1 = Long.MIN_VALUE;
    Set<String> resources = new LinkedHashSet<>();
    Map<String, Event> invokes = new HashMap<>();
    List<Mark> marks = new ArrayList<>();
    Map<String, List<long[]>> steps = new TreeMap<>(); // resource -> (t, epoch)
    List<Object[]> bands = new ArrayList<>(); // kind, target, from, to
    Map<String, Object[]> open = new LinkedHashMap<>();
    for (Event e : history) {
      if (e.type() == Type.META) {
        continue;
      }
      t0 = Math.min(t0, e.t());
      t1 = Math.max(t1, e.t());
      if (e.resource() != null && e.type() != Type.FAULT) {
        resources.add(e.resource());
      }
      String key = e.process() + "\u0000" + e.index();
      switch (e.type()) {
        case INVOKE -> invokes.put(key, e);
        case OK, INFO, FAIL -> {
          Event inv = invokes.remove(key);
          if (inv == null) {
            continue;
          }
          String f = inv.f();
          String r = inv.resource();
          Long epoch = inv.epoch() != null ? inv.epoch() : e.epoch();
          if (r == null || epoch == null) {
            continue;
          }
          if (Event.REGISTER.equals(f) && Event.REGISTERED.equals(e.outcome())
              || Event.WRITE.equals(f)
                  && e.type() == Type.OK
                  && (Event.APPLIED.equals(e.outcome())
                      || Event.ALREADY_APPLIED.equals(e.outcome()))) {
            steps.computeIfAbsent(r, k -> new ArrayList<>()).add(new long[] {e.t(), epoch});
          }
          if (Event.WRITE.equals(f)) {
            if (e.type() == Type.INFO) {
              marks.add(new Mark(r, inv.t(), epoch, "unknown", inv.process()));
            } else if (Event.APPLIED.equals(e.outcome())) {
              marks.add(new Mark(r, e.t(), epoch, "applied", inv.process()));
            } else if (Event.REJECTED_STALE.equals(e.outcome())) {
              marks.add(new Mark(r, e.t(), epoch, "stale", inv.process()));
            }
          }
        }
        case FAULT -> {
          String kind = e.fault() == null ? "fault" : e.fault();
          String target = e.target() == null ? "" : e.target();
          if (kind.equals("resume") || kind.equals("restart")) {
            // By slot: w3 is killed, w3.2 restarted, w3.2 killed, w3.3 restarted (one fault per
            // slot at a time).
            Object[] b = open.remove(slot(target));
            if (b != null) {
              b[3] = e.t();
              bands.add(b);
            }
          } else if (kind.equals("heal")) {
            for (Object[] b : new ArrayList<>(open.values())) {
              if (!"pause".equals(b[0]) && !"kill".equals(b[0])) {
                b[3] = e.t();
                bands.add(b);
                open.values().remove(b);
              }
            }
          } else {
            String k =
                kind.equals("pause") || kind.equals("kill") ? slot(target) : kind + ":" + target;
            open.put(k, new Object[] {kind, target, e.t(), null});
          }
        }
        default -> {}
      }
    }
    for (Map.Entry<String, Event> inv : invokes.entrySet()) {
      Event e = inv.getValue(); // never completed: unknown
      if (Event.WRITE.equals(e.f()) && e.resource() != null && e.epoch() != null) {
        marks.add(new Mark(e.resource(), e.t(), e.epoch(), "unknown", e.process()));
      }
    }
    for (Object[] b : open.values()) {
      b[3] = t1;
      bands.add(b);
    }
    if (t0 == Long.MAX_VALUE) {
      t0 = 0;
      t1 = 1;
    }
    long span = Math.max(1, t1 - t0);
    List<String> lanes = new ArrayList<>(resources);
    lanes.sort(null);
    int height = TOP + LANE * Math.max(1, lanes.size()) + 30;
    double plot = WIDTH - LEFT - RIGHT;
    StringBuilder s = new StringBuilder();
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(WIDTH)
        .append("\" height=\"")
        .append(height)
        .append("\" viewBox=\"0 0 ")
        .append(WIDTH)
        .append(' ')
        .append(height)
        .append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    int stride = Math.max(1, (marks.size() + MAX_MARKS - 1) / MAX_MARKS);
    s.append("<text x=\"")
        .append(LEFT)
        .append("\" y=\"18\">epochs per resource over ")
        .append(String.format(Locale.ROOT, "%.1f", span / 1e9))
        .append(
            " s; dots: applied writes (colour per worker), crosses: rejected stale, hollow:"
                + " unknown outcome")
        .append(stride > 1 ? "; showing 1 in " + stride + " of " + marks.size() + " marks" : "")
        .append("</text>\n");
    // fault bands over all lanes
    double bandTop = TOP;
    double bandHeight = LANE * Math.max(1, lanes.size());
    int shown = 0;
    for (Object[] b : bands) {
      if (shown++ > 2000) {
        break;
      }
      double x0 = LEFT + plot * ((long) b[2] - t0) / span;
      double x1 = LEFT + plot * ((long) b[3] - t0) / span;
      s.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\""
                  + " fill-opacity=\"0.12\"><title>%s</title></rect>\n",
              x0,
              bandTop,
              Math.max(1, x1 - x0),
              bandHeight,
              "pause".equals(b[0]) ? "#ff7f0e" : "kill".equals(b[0]) ? "#d62728" : "#9467bd",
              escape(b[0] + " " + b[1])));
      if (x1 - x0 >= LABEL_MIN_WIDTH) { // narrower bands keep their label in the tooltip
        s.append(
            String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"#555\">%s</text>\n",
                x0 + 1,
                bandTop + 9 + 9 * (shown % 3),
                escape((String) b[0])));
      }
    }
    Map<String, long[]> ranges = new HashMap<>();
    for (Mark m : marks) {
      ranges.merge(m.resource(), new long[] {m.epoch(), m.epoch()}, Report::widen);
    }
    steps.forEach(
        (r, l) -> l.forEach(p -> ranges.merge(r, new long[] {p[1], p[1]}, Report::widen)));
    for (int i = 0; i < lanes.size(); i++) {
      String r = lanes.get(i);
      double y0 = TOP + LANE * i;
      long[] range = ranges.getOrDefault(r, new long[] {0, 1});
      long lo = range[0];
      long hi = Math.max(range[1], lo + 1);
      s.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>\n",
              LEFT,
              y0 + LANE - 5,
              WIDTH - RIGHT,
              y0 + LANE - 5));
      s.append(
          String.format(
              Locale.ROOT,
              "<text x=\"4\" y=\"%.1f\" font-weight=\"bold\">%s</text>\n"
                  + "<text x=\"4\" y=\"%.1f\" font-size=\"9\">epoch %d</text>\n"
                  + "<text x=\"4\" y=\"%.1f\" font-size=\"9\">epoch %d</text>\n",
              y0 + LANE / 2.0,
              escape(r),
              y0 + 14,
              hi,
              y0 + LANE - 8,
              lo));
      List<long[]> l = steps.getOrDefault(r, List.of());
      if (!l.isEmpty()) {
        // the highest epoch so far per pixel column: at most one step per column
        TreeMap<Long, Long> levels = new TreeMap<>();
        long current = 0;
        for (long[] p : l) {
          if (p[1] > current) {
            current = p[1];
            levels.put(Math.round(LEFT + plot * (p[0] - t0) / span), current);
          }
        }
        StringBuilder points = new StringBuilder();
        long lastY = -1;
        for (Map.Entry<Long, Long> level : levels.entrySet()) {
          long x = level.getKey();
          long y = Math.round(yOf(y0, level.getValue(), lo, hi));
          if (lastY >= 0) {
            points.append(' ').append(x).append(',').append(lastY);
          }
          points.append(' ').append(x).append(',').append(y);
          lastY = y;
        }
        points.append(' ').append(WIDTH - RIGHT).append(',').append(lastY);
        s.append("<polyline fill=\"none\" stroke=\"#333\" stroke-width=\"1\" points=\"")
            .append(points.toString().trim())
            .append("\"/>\n");
      }
      int k = 0;
      Set<String> drawn = new LinkedHashSet<>();
      for (Mark m : marks) {
        if (!m.resource().equals(r) || k++ % stride != 0) {
          continue;
        }
        long x = Math.round(LEFT + plot * (m.t() - t0) / span);
        long y = Math.round(yOf(y0, m.epoch(), lo, hi));
        String colour = colour(m.process());
        if (!drawn.add(x + "," + y + "," + m.kind() + "," + colour)) {
          continue; // the same pixel already holds this mark
        }
        switch (m.kind()) {
          case "applied" ->
              s.append(
                  String.format(
                      Locale.ROOT,
                      "<circle cx=\"%d\" cy=\"%d\" r=\"2.5\" fill=\"%s\"/>\n",
                      x,
                      y,
                      colour));
          case "stale" ->
              s.append(
                  String.format(
                      Locale.ROOT,
                      "<path d=\"M%d %dl6 6m0 -6l-6 6\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
                      x - 3,
                      y - 3,
                      colour));
          default ->
              s.append(
                  String.format(
                      Locale.ROOT,
                      "<circle cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"none\" stroke=\"%s\"/>\n",
                      x,
                      y,
                      colour));
        }
      }
    }
    double axis = TOP + LANE * Math.max(1, lanes.size()) + 15;
    for (int i = 0; i <= 10; i++) {
      double x = LEFT + plot * i / 10;
      s.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.1f s</text>\n",
              x,
              axis,
              span / 1e9 * i / 10));
    }
    s.append("</svg>\n");
    return s.toString();
  }

  private static long[] widen(long[] a, long[] b) {
    return new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])};
  }

  private static double yOf(double laneTop, long epoch, long lo, long hi) {
    double inner = LANE - 30;
    return laneTop + 15 + inner * (1 - (double) (epoch - lo) / (hi - lo));
  }

  /**
   * A worker's slot: {@code w3} for {@code w3}, {@code w3.2}, {@code w3.3}, and for their loops
   * {@code w3/1}, {@code w3.2/4}.
   */
  static String slot(String target) {
    return target.replaceAll("/\\d+$", "").replaceAll("\\.\\d+$", "");
  }

  /** One colour per worker; a restarted worker ({@code w3.2}) keeps its colour. */
  private static String colour(String process) {
    String base = process == null ? "" : slot(process);
    return PALETTE[Math.floorMod(base.hashCode(), PALETTE.length)];
  }
}
