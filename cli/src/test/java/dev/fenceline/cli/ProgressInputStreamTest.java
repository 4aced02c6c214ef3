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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The progress line publish draws on a terminal: bytes pass unchanged, at most one redraw per %.
 */
class ProgressInputStreamTest {

  @Test
  void passesTheBytesThroughAndRedrawsAtMostOncePerPercent() throws Exception {
    byte[] payload = new byte[3 * 1024 * 1024 + 17];
    Arrays.fill(payload, (byte) 'x');
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    ByteArrayOutputStream copied = new ByteArrayOutputStream();

    try (PrintStream terminal = new PrintStream(shown, true, StandardCharsets.UTF_8);
        InputStream in =
            new ProgressInputStream(
                new ByteArrayInputStream(payload), payload.length, "report.csv", terminal)) {
      in.transferTo(copied);
    }

    assertThat(copied.toByteArray()).isEqualTo(payload);
    String text = shown.toString(StandardCharsets.UTF_8);
    long redraws = text.chars().filter(c -> c == '\r').count();
    assertThat(redraws).isBetween(1L, 101L);
    assertThat(text).contains("report.csv: 100% (3.0 of 3.0 MiB)").endsWith(System.lineSeparator());
  }
}
