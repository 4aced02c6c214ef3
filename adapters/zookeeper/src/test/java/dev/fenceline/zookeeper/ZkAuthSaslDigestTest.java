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
package dev.fenceline.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SASL DIGEST-MD5 login, in a JVM of its own ({@link SaslDigestProcess}): the JAAS file
 * ({@code java.security.auth.login.config}) and the server's SASL provider are JVM-wide settings
 * that would change every other test's clients.
 */
@Timeout(120) // a failure detector only
class ZkAuthSaslDigestTest {

  /** Distinctive, so that finding it in the output is a leak and not a coincidence. */
  private static final String PASSWORD = "Sasl-Pw-3307-otter";

  @TempDir Path dir;

  @Test
  void aStoreLoggedInWithSaslCreatesNodesOnlyItsPrincipalMayChange() throws Exception {
    Path jaas =
        Files.writeString(
            dir.resolve("jaas.conf"),
            """
            Server {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              user_fenceline="%s";
            };
            Client {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="fenceline"
              password="%s";
            };
            """
                .formatted(PASSWORD, PASSWORD));
    Path output = dir.resolve("output.txt");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-Djava.security.auth.login.config=" + jaas,
                "-Dzookeeper.authProvider.1="
                    + "org.apache.zookeeper.server.auth.SASLAuthenticationProvider",
                SaslDigestProcess.class.getName())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    boolean ended = process.waitFor(90, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly();
    }
    String text = Files.readString(output, UTF_8);
    List<String> lines = text.lines().toList();

    assertThat(ended).as(text).isTrue();
    assertThat(process.exitValue()).as(text).isZero();
    assertThat(lines).as(text).contains("epoch=1", "epoch-after=1", "done");
    assertThat(lines.stream().filter(line -> line.startsWith("acl ")))
        .as(text)
        .hasSize(3)
        .allSatisfy(line -> assertThat(line).endsWith("=[31:sasl:fenceline]"));
    assertThat(lines.stream().filter(line -> line.startsWith("anonymous=")).findFirst())
        .as(text)
        .hasValueSatisfying(line -> assertThat(line).contains("ZooKeeper refused access (NOAUTH)"));
    assertThat(text).doesNotContain(PASSWORD);
  }
}
