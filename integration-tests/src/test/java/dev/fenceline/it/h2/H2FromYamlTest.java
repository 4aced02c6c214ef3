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
package dev.fenceline.it.h2;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.cli.ExitCode;
import dev.fenceline.cli.Main;
import dev.fenceline.config.ConfigReference;
import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.config.Strategy;
import dev.fenceline.core.AdapterRegistry;
import dev.fenceline.core.HeldLease;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code h2-test} adapter, which is not one of Fenceline's (it lives in these tests, on the
 * published SPI and {@code fenceline-locking}), as a user meets it in a configuration file: a
 * destination of {@code type: fenced} publishes through it, and its declared keys reach {@code
 * fenceline doctor}'s error messages, the masking of its secret and the generated reference, with
 * nothing about it in module config (issue 20, acceptance).
 */
class H2FromYamlTest {

  private static final String PASSWORD = "H2-fence-Pa55word!";

  @TempDir Path directory;

  private Path config(String h2Keys) throws IOException {
    Path file = directory.resolve("fenceline.yaml");
    Files.writeString(
        file,
        """
        stores:
          main:
            type: jdbc
            url: "jdbc:sqlite:%s"
          fences:
            type: h2-test
        %s
        issuer: main
        lease:
          ttl: 30s
        destinations:
          ledger:
            type: fenced
            store: fences
        """
            .formatted(directory.resolve("fenceline.db"), h2Keys.indent(4).stripTrailing()),
        UTF_8);
    return file;
  }

  private String h2Keys() {
    return "url: \"jdbc:h2:%s\"\npassword: \"%s\"\nlock-timeout: 5s"
        .formatted(directory.resolve("fences"), PASSWORD);
  }

  @Test
  void aFencedDestinationOnTheH2AdapterPublishesFilesFencedByEpoch() throws IOException {
    Path report = Files.writeString(directory.resolve("report.csv"), "day,orders\n2026-12-01,42\n");
    try (FencelineConfig config = FencelineConfig.load(config(h2Keys()))) {
      ConfiguredDestination ledger = config.destination("ledger");
      assertThat(ledger.strategy()).isEqualTo(Strategy.FENCED_NATIVELY);
      assertThat(ledger.guarantee()).isEqualTo(Guarantee.FENCED);
      ResourceId resource = ResourceId.of("nightly-report");
      FencingToken stale;
      try (HeldLease lease = config.fenceline().tryAcquire(resource).orElseThrow()) {
        stale = lease.token();
      }
      try (HeldLease lease = config.fenceline().tryAcquire(resource).orElseThrow()) {
        config.fenceline().register(lease, ledger.destination());
        OperationId operation = OperationId.of("report-2026-12-01");

        assertThat(ledger.publish(lease.token(), operation, report)).isInstanceOf(Applied.class);
        assertThat(ledger.publish(lease.token(), operation, report))
            .isInstanceOf(AlreadyApplied.class);
        assertThat(ledger.publish(stale, OperationId.of("late"), report))
            .isEqualTo(
                new RejectedStale(resource, stale.epoch(), Epoch.of(stale.epoch().value() + 1)));
      }
    }
  }

  @Test
  void doctorDescribesTheDestinationAndNeverShowsTheSecret() throws IOException {
    Result doctor = run("doctor", "--config", config(h2Keys()).toString());

    assertThat(doctor.status()).as(doctor.err()).isEqualTo(ExitCode.OK.code());
    assertThat(doctor.out()).contains("ledger", "h2-test", "FENCED");
    assertThat(doctor.out() + doctor.err()).doesNotContain(PASSWORD);
  }

  @Test
  void doctorPlacesAMisspeltKeyOfTheAdapterAtItsLineWithTheClosestKnownOne() throws IOException {
    Path file = config(h2Keys().replace("lock-timeout", "lock-timout"));

    Result doctor = run("doctor", "--config", file.toString());

    assertThat(doctor.status()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(doctor.err())
        .contains(file + ":9:")
        .contains("stores.fences.lock-timout")
        .contains("did you mean \"lock-timeout\"?");
    assertThat(doctor.out() + doctor.err()).doesNotContain(PASSWORD);
  }

  @Test
  void aValueTheAdapterRefusesIsPlacedAtItsKeyAndTheSecretIsMasked() throws IOException {
    // The h2-test factory refuses a URL that is not H2's; config places it by the exception's key.
    Path file = config(h2Keys().replace("jdbc:h2:", "jdbc:sqlite:"));

    Result doctor = run("doctor", "--config", file.toString());

    assertThat(doctor.status()).isEqualTo(ExitCode.BAD_CONFIG_OR_USAGE.code());
    assertThat(doctor.err()).contains(file + ":7:").contains("stores.fences.url");
    assertThat(doctor.out() + doctor.err()).doesNotContain(PASSWORD);
    try (FencelineConfig config = FencelineConfig.load(config(h2Keys()))) {
      assertThat(config.mask("the server said: password " + PASSWORD + " is wrong"))
          .isEqualTo("the server said: password **** is wrong");
      assertThat(config.toString()).doesNotContain(PASSWORD);
    }
  }

  @Test
  void theGeneratedReferenceListsTheAdaptersKeys() {
    String reference = ConfigReference.markdown(AdapterRegistry.load());

    // Only the h2-test section: the jdbc section has keys of the same names.
    String heading = "### `type: h2-test`";
    assertThat(reference).contains(heading);
    String section = reference.substring(reference.indexOf(heading) + heading.length());
    int end = section.indexOf("\n#"); // the next heading, if any
    if (end >= 0) {
      section = section.substring(0, end);
    }
    for (String key : new String[] {"url", "user", "password", "lock-timeout"}) {
      assertThat(section).contains("| `" + key + "` |");
    }
    assertThat(section).containsPattern("\\| `password` \\| [^|\\n]*secret");
  }

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream outStream = new PrintStream(out, true, UTF_8);
        PrintStream errStream = new PrintStream(err, true, UTF_8)) {
      status = Main.run(args, outStream, errStream);
    }
    return new Result(status, out.toString(UTF_8), err.toString(UTF_8));
  }

  private record Result(int status, String out, String err) {
    @Override
    public String toString() {
      return Map.of("status", status, "out", out, "err", err).toString();
    }
  }
}
