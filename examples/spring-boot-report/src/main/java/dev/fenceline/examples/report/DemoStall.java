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
package dev.fenceline.examples.report;

import dev.fenceline.core.HeldLease;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * For the demonstration only ({@code nightly-report.demo-stall=true}, off by default): every run
 * stops after computing its report, logs {@code STALLED epoch=N} and waits for one line on standard
 * input before it publishes. A test freezes the whole JVM there with SIGSTOP, which stands for the
 * GC pause or VM freeze that makes an instance outlive its lease without knowing it. When standard
 * input ends, the run gives up without publishing.
 */
@Component
class DemoStall {

  private static final Logger LOG = LoggerFactory.getLogger(DemoStall.class);

  private final boolean enabled;
  private final BufferedReader input =
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

  DemoStall(@Value("${nightly-report.demo-stall:false}") boolean enabled) {
    this.enabled = enabled;
  }

  /**
   * When enabled, waits for a line on standard input; otherwise returns at once.
   *
   * @throws IOException if standard input ended: the run must not publish
   */
  void afterComputing(HeldLease lease) throws IOException {
    if (!enabled) {
      return;
    }
    LOG.info("STALLED epoch={} (waiting for a line on standard input)", lease.token().epoch());
    if (input.readLine() == null) {
      throw new IOException("Cannot go on with the stalled run: standard input ended");
    }
  }
}
