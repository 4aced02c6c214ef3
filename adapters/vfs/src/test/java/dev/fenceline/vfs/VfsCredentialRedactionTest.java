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
package dev.fenceline.vfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.StoreException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No user name and no password ever reaches a message or a cause's message, whatever the password
 * contains: every failure path of opening and using a store, with credentials in the URI or given
 * separately. Each password is made of distinctive pieces, so a leaked piece is found too.
 */
class VfsCredentialRedactionTest {

  private static final String USER = "alice-ops";

  @TempDir Path directory;

  /** Passwords with unencoded '/', '@', ':', '?', '#' and percent escapes; pieces of 3 chars. */
  static Stream<String> nastyPasswords() {
    return Stream.of(
        "Qx7/Zk9@Wv3:Jm5", "Aa1@Bb2@Cc3", "Dd4/Ee5", "Ff6:Gg7@Hh8/Ii9", "Jj0%2FKk1", "Ll2?Mm3#Nn4");
  }

  /** The password's pieces between special characters, decoded and not. */
  private static List<String> pieces(String password) {
    return Stream.of(password.split("[/@:?#%]|2F")).filter(piece -> piece.length() >= 3).toList();
  }

  @ParameterizedTest
  @MethodSource("nastyPasswords")
  void aBadUriShowsNoUserInformation(String password) {
    assertRedacted(open("sftp://" + USER + ":" + password + "@host:port/x"), password);
    assertRedacted(open("nosuch://" + USER + ":" + password + "@host/x"), password);
    assertRedacted(open("sftp://" + USER + ":" + password + "@/x"), password);
  }

  @ParameterizedTest
  @MethodSource("nastyPasswords")
  void anUnreachableHostShowsNoUserInformation(String password) {
    // Port 1 on loopback refuses connections.
    assertRedacted(open("sftp://" + USER + ":" + password + "@127.0.0.1:1/x"), password);
    Throwable separately =
        catchThrowable(
            () ->
                VfsBlobStore.builder("sftp://127.0.0.1:1/x")
                    .credentials(USER, password)
                    .timeout(Duration.ofSeconds(5))
                    .build()
                    .close());
    assertThat(separately).isInstanceOf(StoreException.class).hasMessageContaining("127.0.0.1:1");
    assertRedacted(separately, password);
  }

  @ParameterizedTest
  @MethodSource("nastyPasswords")
  void aRefusedLoginShowsNoUserInformation(String password) throws IOException {
    Files.createDirectories(directory.resolve("root"));
    try (SftpTestServer server =
        new SftpTestServer(directory.resolve("root"), directory.resolve("host.key"))) {
      String hostAndPath = server.shownUri("blobs").substring("sftp://".length());

      Throwable inUri = open("sftp://" + USER + ":" + password + "@" + hostAndPath);
      assertRedacted(inUri, password);
      Throwable encodedInUri = open("sftp://" + USER + ":" + encode(password) + "@" + hostAndPath);
      assertThat(encodedInUri)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("Cannot open blob store at " + server.shownUri("blobs"))
          .hasMessageContaining("Auth fail");
      assertRedacted(encodedInUri, password);
      Throwable separately =
          catchThrowable(
              () ->
                  VfsBlobStore.builder(server.shownUri("blobs"))
                      .credentials(USER, password)
                      .strictHostKeyChecking(false)
                      .timeout(Duration.ofSeconds(10))
                      .build()
                      .close());
      assertThat(separately).isInstanceOf(StoreException.class).hasMessageContaining("Auth fail");
      assertRedacted(separately, password);
    }
  }

  @ParameterizedTest
  @MethodSource("nastyPasswords")
  void anOpenStoreShowsNoUserInformationInDescriptionsOrFailures(String password)
      throws IOException {
    Files.createDirectories(directory.resolve("root"));
    try (SftpTestServer server =
        new SftpTestServer(
            directory.resolve("root"), directory.resolve("host.key"), USER, password)) {
      String hostAndPath = server.shownUri("blobs").substring("sftp://".length());
      try (VfsBlobStore store =
          VfsBlobStore.builder("sftp://" + USER + ":" + encode(password) + "@" + hostAndPath)
              .strictHostKeyChecking(false)
              .timeout(Duration.ofSeconds(10))
              .build()) {
        assertThat(store.description()).isEqualTo(server.shownUri("blobs"));
        server.refuseWrites(true);

        Throwable refused =
            catchThrowable(
                () ->
                    store.put(
                        BlobKey.of("k"),
                        new ByteArrayInputStream("x".getBytes(StandardCharsets.UTF_8))));
        assertThat(refused).isInstanceOf(StoreException.class).hasMessageContaining("ermission");
        assertRedacted(refused, password);
      }
    }
  }

  @Test
  void anAmbiguousUriIsRefusedBeforeAnyConnection() {
    // VFS would read "Gg7" as the host and send it the password "Ff6".
    Throwable ambiguous = open("sftp://" + USER + ":Ff6:Gg7@Hh8/Ii9@127.0.0.1:1/x");

    assertThat(ambiguous)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("Cannot open blob store at sftp://127.0.0.1:1/x: the URI has")
        .hasMessageContaining("percent-encode");
    assertRedacted(ambiguous, "Ff6:Gg7@Hh8/Ii9");
  }

  @Test
  void aLocalPathWithAnAtSignIsShownAsItIs() {
    Path base = directory.resolve("team@site");
    try (VfsBlobStore store = VfsBlobStore.open(base.toUri().toString())) {
      assertThat(store.description()).contains("team@site");
    }
  }

  private static Throwable open(String uri) {
    Executable open =
        () ->
            VfsBlobStore.builder(uri)
                .strictHostKeyChecking(false)
                .timeout(Duration.ofSeconds(5))
                .build()
                .close();
    Throwable thrown = catchThrowable(open::execute);
    assertThat(thrown).as("opening %s", "the store").isNotNull();
    return thrown;
  }

  private static String encode(String password) {
    return URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Neither the message nor the printed stack trace (causes included) shows user information. */
  private static void assertRedacted(Throwable thrown, String password) {
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    assertThat(thrown).isInstanceOfAny(ConfigurationException.class, StoreException.class);
    for (String text : List.of(thrown.getMessage(), trace.toString())) {
      assertThat(text).doesNotContain(USER).doesNotContain(password).doesNotContainPattern("\\w@");
      for (String piece : pieces(password)) {
        assertThat(text).as("piece %s of the password", piece).doesNotContain(piece);
      }
    }
  }
}
