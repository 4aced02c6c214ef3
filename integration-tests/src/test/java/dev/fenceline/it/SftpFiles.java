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
package dev.fenceline.it;

import dev.fenceline.vfs.SftpTestServer;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** One in-process SFTP server (Apache MINA SSHD) shared by the test classes of this JVM. */
final class SftpFiles {

  private static Path served;
  private static SftpTestServer server;

  private SftpFiles() {}

  private static synchronized SftpTestServer server() {
    if (server == null) {
      try {
        Path directory = Files.createTempDirectory("fenceline-sftp-");
        served = Files.createDirectories(directory.resolve("root"));
        server = new SftpTestServer(served, directory.resolve("host.key"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return server;
  }

  /** Where the store's base directory lies on this machine's disk. */
  static Path root() {
    server();
    return served.resolve("blobs");
  }

  static VfsBlobStore open() {
    return VfsBlobStore.builder(server().uri("blobs"))
        .credentials(SftpTestServer.USER, SftpTestServer.PASSWORD)
        .strictHostKeyChecking(false)
        .timeout(Duration.ofSeconds(20))
        .build();
  }
}
