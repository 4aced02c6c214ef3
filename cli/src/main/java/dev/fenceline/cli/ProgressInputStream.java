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

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * Counts the bytes read through it and redraws one {@code \r}-terminated progress line on a
 * terminal at most every percent (every MiB if the size is unknown, -1); finishes the line on
 * close.
 */
final class ProgressInputStream extends FilterInputStream {

  private final long size;
  private final String label;
  private final PrintStream terminal;
  private long read;
  private int shownPercent = -1;

  ProgressInputStream(InputStream in, long size, String label, PrintStream terminal) {
    super(in);
    this.size = size;
    this.label = label;
    this.terminal = terminal;
  }

  /**
   * True if standard output is a terminal: only then is progress drawn. On Java 22 and later {@code
   * System.console()} may exist without a terminal, so {@code Console.isTerminal()} is asked where
   * it exists.
   */
  static boolean stdoutIsTerminal() {
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (NoSuchMethodException e) {
      return true; // Java 17 to 21: a console exists only on a terminal
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      advance(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n > 0) {
      advance(n);
    }
    return n;
  }

  private void advance(long n) {
    read += n;
    if (size < 0) {
      // Unknown size (standard input): redraw every MiB.
      int mebibytes = (int) Math.min(Integer.MAX_VALUE, read >> 20);
      if (mebibytes != shownPercent) {
        shownPercent = mebibytes;
        terminal.print(String.format("\r%s: %.1f MiB", label, read / 1048576.0));
        terminal.flush();
      }
      return;
    }
    int percent = size > 0 ? (int) Math.min(100, read * 100 / size) : 100;
    if (percent != shownPercent) {
      shownPercent = percent;
      terminal.print(
          String.format(
              "\r%s: %3d%% (%.1f of %.1f MiB)",
              label, percent, read / 1048576.0, size / 1048576.0));
      terminal.flush();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (shownPercent >= 0) {
        terminal.println();
        terminal.flush();
      }
    }
  }
}
