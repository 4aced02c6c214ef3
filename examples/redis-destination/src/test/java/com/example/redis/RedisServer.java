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
package com.example.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@code redis-server} child process on 127.0.0.1, with its data in a directory of the test: AOF
 * on with {@code appendfsync always}, no RDB snapshots. The binary is the one {@code
 * com.github.codemonstur:embedded-redis} ships for this platform (extracted from the jar on the
 * test class path), else {@code redis-server} on the PATH. Started and stopped by the tests
 * themselves, with the flags here, not the library's defaults.
 */
final class RedisServer {

  /** How long a start (an AOF replay included) may take. */
  private static final long START_SECONDS = 30;

  private static Path binary;

  /** Children still running when the JVM exits (a test failed to stop one, or the fork ends). */
  private static final java.util.Set<Process> CHILDREN =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> CHILDREN.forEach(p -> p.destroyForcibly()), "redis-server-children"));
  }

  private final Path directory;
  private final int port;
  private final Process process;
  private final List<String> log;

  private RedisServer(Path directory, int port, Process process, List<String> log) {
    this.directory = directory;
    this.port = port;
    this.process = process;
    this.log = log;
  }

  /** Starts a server on {@code directory} (its AOF, if any, is replayed) at a free port. */
  static RedisServer start(Path directory) {
    return start(directory, new String[0]);
  }

  /**
   * Starts a server on {@code directory} at a free port with more flags after the ones below, which
   * override them (e.g. {@code "--appendonly", "no"}).
   */
  static RedisServer start(Path directory, String... flags) {
    createDirectories(directory);
    for (int attempt = 1; ; attempt++) {
      try {
        int port = freePort();
        return start(directory, port, serverCommand(directory, port, flags), READY);
      } catch (PortTaken e) {
        if (attempt == 3) {
          throw e;
        }
        // Another process took the free port between the probe and redis-server's bind.
      }
    }
  }

  /** The port found free was taken before redis-server could bind it. */
  private static final class PortTaken extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    PortTaken(String message) {
      super(message);
    }
  }

  /**
   * Starts a Sentinel at a free port that monitors {@code primary} as {@code fenceline}, with its
   * config file in {@code directory}; returns once it monitors it.
   */
  static RedisServer startSentinel(Path directory, RedisServer primary) {
    createDirectories(directory);
    Path config = directory.resolve("sentinel.conf");
    try {
      Files.writeString(config, "");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + config, e);
    }
    int port = freePort();
    List<String> command =
        List.of(
            binary().toString(),
            config.toString(),
            "--sentinel",
            "--bind",
            "127.0.0.1",
            "--port",
            Integer.toString(port),
            "--sentinel",
            "monitor",
            "fenceline",
            "127.0.0.1",
            Integer.toString(primary.port()),
            "1");
    return start(directory, port, command, "+monitor master fenceline");
  }

  private static void createDirectories(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + directory, e);
    }
  }

  /** What Redis prints once it listens, after replaying the AOF. */
  private static final String READY = "Ready to accept connections";

  private static List<String> serverCommand(Path directory, int port, String... flags) {
    Path server = binary();
    List<String> command =
        List.of(
            server.toString(),
            "--bind",
            "127.0.0.1",
            "--port",
            Integer.toString(port),
            "--dir",
            directory.toString(),
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--save",
            "",
            "--daemonize",
            "no",
            "--logfile",
            "");
    return Stream.concat(command.stream(), Stream.of(flags)).toList();
  }

  private static RedisServer start(
      Path directory, int port, List<String> command, String readyLine) {
    Process process = launch(command);
    List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch ready = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () -> readLog(process.getInputStream(), log, ready, readyLine),
            "redis-" + port + "-log");
    reader.setDaemon(true);
    reader.start();
    try {
      if (!ready.await(START_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "redis-server did not get ready within " + START_SECONDS + " s: " + command + log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException(e);
    }
    boolean listening;
    synchronized (log) {
      listening = log.stream().anyMatch(line -> line.contains(readyLine));
    }
    if (!listening) {
      process.destroyForcibly();
      String message = "redis-server exited: " + command + " " + log;
      synchronized (log) {
        if (log.stream().anyMatch(line -> line.contains("Address already in use"))) {
          throw new PortTaken(message);
        }
      }
      throw new IllegalStateException(message);
    }
    reportVersionOnce(log);
    return new RedisServer(directory, port, process, log);
  }

  private static boolean versionReported;

  /** Prints once which binary runs and the version it reports ("Redis version=6.2.11, ..."). */
  private static synchronized void reportVersionOnce(List<String> log) {
    if (!versionReported) {
      versionReported = true;
      String version;
      synchronized (log) {
        version =
            log.stream()
                .map(line -> line.replaceAll(".*(Redis version=[^ ,]+).*", "$1"))
                .filter(line -> line.startsWith("Redis version="))
                .findFirst()
                .orElse("no version line");
      }
      System.out.println("RedisServer: " + binary().getFileName() + " reports " + version);
    }
  }

  private static Process launch(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      CHILDREN.add(process);
      process.onExit().thenRun(() -> CHILDREN.remove(process));
      return process;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + command, e);
    }
  }

  private static void readLog(
      InputStream output, List<String> log, CountDownLatch ready, String readyLine) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        log.add(line);
        if (line.contains(readyLine)) {
          ready.countDown();
        }
      }
    } catch (IOException e) {
      log.add("(log read failed: " + e + ")");
    } finally {
      ready.countDown(); // exited: start() sees the dead process and reports the log
    }
  }

  int port() {
    return port;
  }

  Path directory() {
    return directory;
  }

  /** What the server printed so far, for failure messages. */
  List<String> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /** SIGTERM: Redis fsyncs the AOF and exits. Waits for the exit. */
  void stop() {
    process.destroy();
    awaitExit();
  }

  /** SIGKILL: no shutdown, nothing flushed that was not flushed already. Waits for the exit. */
  void kill() {
    process.destroyForcibly();
    awaitExit();
  }

  /** Stops this server and starts another on the same directory. */
  RedisServer restart() {
    stop();
    return start(directory);
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The binary: embedded-redis' for this platform, else redis-server on the PATH. */
  static synchronized Path binary() {
    if (binary == null) {
      binary = bundled().or(RedisServer::onPath).orElseThrow(RedisServer::noBinary);
    }
    return binary;
  }

  /** The name of embedded-redis 1.4.4's binary for this platform, if it ships one. */
  private static Optional<String> bundledName() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
    if (os.contains("linux")) {
      return x64
          ? Optional.of("redis-server-6.2.6-v5-linux-amd64")
          : arm64 ? Optional.of("redis-server-6.2.7-linux-arm64") : Optional.empty();
    }
    if (os.contains("mac")) {
      return x64
          ? Optional.of("redis-server-6.2.6-v5-darwin-amd64")
          : arm64 ? Optional.of("redis-server-6.2.6-v5-darwin-arm64") : Optional.empty();
    }
    return Optional.empty();
  }

  private static Optional<Path> bundled() {
    Optional<String> name = bundledName();
    URL url = name.map(n -> RedisServer.class.getClassLoader().getResource(n)).orElse(null);
    if (url == null) {
      return Optional.empty();
    }
    try (InputStream in = url.openStream()) {
      Path directory = Files.createTempDirectory("redis-server-");
      Path file = directory.resolve(name.get());
      Files.copy(in, file);
      if (!file.toFile().setExecutable(true, true)) {
        throw new IllegalStateException("Cannot make " + file + " executable");
      }
      // deleteOnExit deletes in reverse order of registration; one hook deletes file, then
      // directory.
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      Files.deleteIfExists(file);
                      Files.deleteIfExists(directory);
                    } catch (IOException e) {
                      System.err.println("Cannot delete " + directory + ": " + e);
                    }
                  },
                  "redis-server-binary-cleanup"));
      return Optional.of(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot extract " + url + " to a temporary file", e);
    }
  }

  private static Optional<Path> onPath() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(java.io.File.pathSeparator)) {
      if (!entry.isEmpty()) {
        Path candidate = Path.of(entry, "redis-server");
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  private static IllegalStateException noBinary() {
    return new IllegalStateException(
        "No redis-server for "
            + System.getProperty("os.name")
            + "/"
            + System.getProperty("os.arch")
            + ": the test looks for "
            + bundledName().orElse("a binary for this platform")
            + " in com.github.codemonstur:embedded-redis on the test class path (it ships linux"
            + " amd64/arm64 and macOS amd64/arm64), then for redis-server on the PATH ("
            + System.getenv("PATH")
            + "). Install Redis (e.g. apt-get install redis-server) or add that artifact.");
  }

  /** A port nothing listens on right now. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find a free port on 127.0.0.1", e);
    }
  }
}
