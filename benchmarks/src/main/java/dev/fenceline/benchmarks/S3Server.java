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
package dev.fenceline.benchmarks;

import dev.fenceline.benchmarks.Options.StoreKind;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An S3 server started as a child process, as the S3 adapter's tests start it ({@code
 * S3TestServer}): S3Proxy 4.1.0 and S3Mock 4.8.0 cannot share a class path with each other, with
 * the AWS SDK or with the ZooKeeper ensemble (S3Proxy's jar bundles its own SDK and Jetty 12,
 * S3Mock is a Spring Boot application). The jars are copied to {@code benchmarks/target/s3-servers}
 * by the build. Both keep their objects in files under the work directory: S3Proxy with jclouds'
 * {@code filesystem-nio2} store, S3Mock with its file store. Neither forces files to disk.
 */
final class S3Server implements AutoCloseable {

  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

  private final StoreKind kind;
  private final URI endpoint;
  private final Process process;
  private final Path log;

  private S3Server(StoreKind kind, URI endpoint, Process process, Path log) {
    this.kind = kind;
    this.endpoint = endpoint;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code kind} (S3PROXY or S3MOCK) with its data under {@code directory} and waits until
   * it answers HTTP.
   */
  static S3Server start(StoreKind kind, Path directory) throws IOException {
    Path jar = serverJars().resolve(kind == StoreKind.S3PROXY ? "s3proxy.jar" : "s3mock.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "Cannot start "
              + kind.shown()
              + ": "
              + jar
              + " is missing (benchmarks/run builds it: mvn -pl benchmarks -am package copies the"
              + " S3 servers to benchmarks/target/s3-servers)");
    }
    Files.createDirectories(directory);
    int[] ports = freePorts(2); // S3Mock listens on two ports
    Path log = directory.resolve("server.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:+UseSerialGC");
    if (kind == StoreKind.S3MOCK) {
      command.add("-Xmx512m");
      command.add("-jar");
      command.add(jar.toString());
      command.add("--com.adobe.testing.s3mock.httpPort=" + ports[0]);
      command.add("--server.port=" + ports[1]);
      command.add("--com.adobe.testing.s3mock.store.root=" + directory.resolve("data"));
      command.add("--spring.main.banner-mode=off");
      command.add("--logging.level.root=WARN");
    } else {
      Path data = Files.createDirectories(directory.resolve("data"));
      Path properties = directory.resolve("s3proxy.properties");
      Files.writeString(
          properties,
          String.join(
              "\n",
              "s3proxy.endpoint=http://127.0.0.1:" + ports[0],
              "s3proxy.authorization=none",
              "jclouds.provider=filesystem-nio2",
              "jclouds.filesystem.basedir=" + data,
              "jclouds.identity=local",
              "jclouds.credential=local",
              ""));
      command.add("-Xmx512m");
      command.add("-jar");
      command.add(jar.toString());
      command.add("--properties");
      command.add(properties.toString());
    }
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    S3Server server = new S3Server(kind, URI.create("http://127.0.0.1:" + ports[0]), process, log);
    try {
      server.awaitReady();
      return server;
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Where the build put the server jars: {@code <checkout>/benchmarks/target/s3-servers}. */
  private static Path serverJars() {
    String explicit = System.getProperty("fenceline.bench.s3-servers");
    if (explicit != null) {
      return Path.of(explicit);
    }
    return Path.of(System.getProperty("fenceline.bench.root", "."))
        .resolve(Path.of("benchmarks", "target", "s3-servers"));
  }

  StoreKind kind() {
    return kind;
  }

  URI endpoint() {
    return endpoint;
  }

  /** What the report shows about the server. */
  Map<String, String> settings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(
        "server",
        kind == StoreKind.S3PROXY
            ? "S3Proxy 4.1.0 (jar-with-dependencies), jclouds filesystem-nio2 store"
            : "S3Mock 4.8.0 (exec jar), its file store");
    settings.put("process", "a child JVM, -Xmx512m, serial GC, on 127.0.0.1");
    settings.put("durability", "objects in files, not forced to disk (neither server fsyncs)");
    return settings;
  }

  private void awaitReady() throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    while (System.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Cannot start "
                + kind.shown()
                + ": it exited with "
                + process.exitValue()
                + " while starting:\n"
                + tail());
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) endpoint.resolve("/").toURL().openConnection();
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(5000);
        connection.getResponseCode(); // any HTTP answer means the server is up
        connection.disconnect();
        return;
      } catch (IOException notYet) {
        try {
          process.waitFor(200, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("Interrupted while starting " + kind.shown(), e);
        }
      }
    }
    throw new IllegalStateException(
        "Cannot start " + kind.shown() + ": no HTTP answer within 120 s:\n" + tail());
  }

  private String tail() throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  /**
   * {@code count} different free loopback ports, all held until all are chosen (a port freed at
   * once may be handed out again by the next bind).
   */
  private static int[] freePorts(int count) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket();
        held.add(socket);
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
      }
      return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
    } finally {
      for (ServerSocket socket : held) {
        socket.close();
      }
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return kind.shown() + " at " + endpoint + " (log " + log + ")";
  }
}
