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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.List;
import java.util.Set;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.FileHandle;
import org.apache.sshd.sftp.server.SftpFileSystemAccessor;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.apache.sshd.sftp.server.SftpSubsystemProxy;

/**
 * A real SFTP server (Apache MINA SSHD) in this JVM, serving {@code root} on a free loopback port
 * to user {@value #USER} with password {@value #PASSWORD} (or the given ones). It can refuse writes
 * the way a server answers a user without write permission.
 */
public final class SftpTestServer implements AutoCloseable {

  public static final String USER = "fenceline";
  public static final String PASSWORD = "s3cret-pw";

  private final SshServer server;
  private final String user;
  private volatile boolean refuseWrites;

  /** Starts the server over {@code root}; {@code hostKey} is a file for the generated host key. */
  public SftpTestServer(Path root, Path hostKey) {
    this(root, hostKey, USER, PASSWORD);
  }

  /** Starts the server over {@code root} for {@code user} with {@code password}. */
  public SftpTestServer(Path root, Path hostKey, String user, String password) {
    this.user = user;
    server = SshServer.setUpDefaultServer();
    server.setHost("127.0.0.1");
    server.setPort(0);
    server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(hostKey));
    server.setPasswordAuthenticator(
        (name, secret, session) -> user.equals(name) && password.equals(secret));
    SftpFileSystemAccessor accessor =
        new SftpFileSystemAccessor() {
          @Override
          public SeekableByteChannel openFile(
              SftpSubsystemProxy subsystem,
              FileHandle fileHandle,
              Path file,
              String handle,
              Set<? extends OpenOption> options,
              FileAttribute<?>... attrs)
              throws IOException {
            boolean writing =
                options.contains(StandardOpenOption.WRITE)
                    || options.contains(StandardOpenOption.APPEND)
                    || options.contains(StandardOpenOption.CREATE)
                    || options.contains(StandardOpenOption.CREATE_NEW);
            if (refuseWrites && writing) {
              throw new AccessDeniedException(file.toString(), null, "Permission denied");
            }
            return SftpFileSystemAccessor.super.openFile(
                subsystem, fileHandle, file, handle, options, attrs);
          }
        };
    server.setSubsystemFactories(
        List.of(new SftpSubsystemFactory.Builder().withFileSystemAccessor(accessor).build()));
    server.setFileSystemFactory(new VirtualFileSystemFactory(root));
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The URI of {@code path} below the served root, without credentials. */
  public String uri(String path) {
    return "sftp://" + user + "@" + shownUri(path).substring("sftp://".length());
  }

  /** The URI of {@code path} as messages show it: without any user information. */
  public String shownUri(String path) {
    return "sftp://127.0.0.1:" + server.getPort() + "/" + path;
  }

  /** Makes the server refuse to open files for writing, as for a user without permission. */
  public void refuseWrites(boolean refuse) {
    this.refuseWrites = refuse;
  }

  @Override
  public void close() {
    try {
      server.stop(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
