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
package dev.fenceline.chaos.backends;

import dev.fenceline.chaos.StoreFaults;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * S3Proxy 4.1.0 (transient store) as a child process, behind a {@link ConditionalWriteProxy} in
 * this JVM that makes its conditional writes atomic for every worker process. The YAML has the
 * issuer on a SQLite file ({@code jdbc}), an {@code s3} store on the proxy (blobs and, after its
 * conditional-write probe, pointers), and the staged destination {@code files} on it.
 *
 * <p>No store faults of its own ({@link StoreFaults#kinds()} is empty); the fault proxies of the
 * chaos harness can sit in front of {@link #endpoints()} {@code s3}. Every JVM that opens the YAML
 * needs {@link #jvmOptions()} (the test credentials as system properties, which the AWS SDK's
 * default chain reads).
 *
 * <p>The server jar comes from the directory in system property {@code fenceline.s3-servers} (Maven
 * copies it to {@code chaos/target/s3-servers}).
 */
public final class S3Backend implements ChaosBackend {

  /** The bucket the YAML uses. */
  public static final String BUCKET = "chaos";

  private final Path workDir;
  private final Process server;
  private final URI serverEndpoint;
  private final ConditionalWriteProxy proxy;

  private S3Backend(Path workDir, Process server, URI serverEndpoint, ConditionalWriteProxy proxy) {
    this.workDir = workDir;
    this.server = server;
    this.serverEndpoint = serverEndpoint;
    this.proxy = proxy;
  }

  /**
   * Starts S3Proxy (its log and the issuer database under {@code workDir}), creates the bucket and
   * starts the proxy in front of it.
   *
   * @throws IllegalStateException if the jar is missing or the server does not answer within 60 s
   */
  public static S3Backend start(Path workDir) {
    Path dir = workDir.toAbsolutePath();
    String servers =
        System.getProperty("fenceline.s3-servers", Paths.get("target", "s3-servers").toString());
    Path jar = Paths.get(servers).resolve("s3proxy.jar").toAbsolutePath();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "Cannot start S3Proxy: "
              + jar
              + " is missing (set -Dfenceline.s3-servers=<dir with s3proxy.jar>, or run through"
              + " Maven, which copies org.gaul:s3proxy:4.1.0:jar-with-dependencies to"
              + " chaos/target/s3-servers)");
    }
    Process process = null;
    try {
      Files.createDirectories(dir);
      int port = freePort();
      Path properties = dir.resolve("s3proxy.properties");
      Files.writeString(
          properties,
          String.join(
              "\n",
              "s3proxy.endpoint=http://127.0.0.1:" + port,
              "s3proxy.authorization=none",
              "jclouds.provider=transient-nio2",
              "jclouds.identity=local",
              "jclouds.credential=local",
              ""));
      Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
      process =
          new ProcessBuilder(
                  java.toString(),
                  "-XX:+UseSerialGC",
                  // S3Proxy's transient store keeps every object in its heap: a long run
                  // (chaos/results/run-long-runs.sh) needs more than a test's.
                  "-Xmx" + System.getProperty("fenceline.s3proxy-heap", "256m"),
                  "-jar",
                  jar.toString(),
                  "--properties",
                  properties.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("s3proxy.log").toFile())
              .start();
      URI endpoint = URI.create("http://127.0.0.1:" + port);
      awaitReady(endpoint, process, dir.resolve("s3proxy.log"));
      createBucket(endpoint);
      ConditionalWriteProxy proxy = ConditionalWriteProxy.start(endpoint);
      return new S3Backend(dir, process, endpoint, proxy);
    } catch (IOException | RuntimeException e) {
      if (process != null) {
        process.destroyForcibly();
      }
      throw new IllegalStateException("Cannot start the S3 backend in " + dir + ": " + e, e);
    }
  }

  @Override
  public String name() {
    return "s3";
  }

  @Override
  public String destination() {
    return "files";
  }

  /** {@return how many conditional writes the proxy serialized so far} */
  public long conditionalWrites() {
    return proxy.conditionalWrites();
  }

  @Override
  public Path writeConfig(Path dir) {
    String yaml =
        String.join(
            "\n",
            "# S3Proxy "
                + serverEndpoint
                + " behind "
                + proxy.endpoint()
                + ", written by S3Backend",
            "stores:",
            "  main:",
            "    type: jdbc",
            "    url: " + Yaml.quote("jdbc:sqlite:" + workDir.resolve("issuer.db")),
            "    lock-timeout: 5s",
            "  bucket:",
            "    type: s3",
            "    bucket: " + BUCKET,
            "    endpoint: " + proxy.endpoint(),
            "    path-style: true",
            "    region: us-east-1",
            // The driver probes conditional writes once; the workers reuse the pass from
            // $XDG_CACHE_HOME (also a worker restarted while a proxy fault cuts the endpoint).
            "    probe-cache: 10m",
            "    connect-timeout: 1s",
            "    socket-timeout: 3s",
            // The first call of a cold JVM (the conditional-write probe) took over 4 s on a
            // loaded 2-core machine.
            "    attempt-timeout: 4s",
            "    call-timeout: 8s",
            "issuer: main",
            "lease:",
            "  ttl: 5s",
            "destinations:",
            "  files:",
            "    store: bucket",
            "");
    return Yaml.write(dir, yaml);
  }

  @Override
  public StoreFaults storeFaults() {
    return NO_FAULTS;
  }

  @Override
  public Map<String, String> endpoints() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    endpoints.put("s3", proxy.endpoint().toString());
    endpoints.put("s3-server", serverEndpoint.toString());
    endpoints.put("issuer", "jdbc:sqlite:" + workDir.resolve("issuer.db"));
    return endpoints;
  }

  @Override
  public List<String> jvmOptions() {
    return List.of("-Daws.accessKeyId=local", "-Daws.secretAccessKey=local");
  }

  @Override
  public void close() {
    try {
      proxy.close();
    } finally {
      server.destroyForcibly();
      try {
        server.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static final StoreFaults NO_FAULTS =
      new StoreFaults() {
        @Override
        public List<String> kinds() {
          return List.of();
        }

        @Override
        public String inject(String kind, Random random) {
          throw new IllegalArgumentException(
              "Cannot inject fault '"
                  + kind
                  + "' on the S3 backend: it has no store faults of its own (put a fault proxy in"
                  + " front of its s3 endpoint)");
        }

        @Override
        public void heal() {}

        @Override
        public void close() {}
      };

  private static void createBucket(URI endpoint) throws IOException {
    HttpURLConnection connection =
        (HttpURLConnection) endpoint.resolve("/" + BUCKET).toURL().openConnection();
    connection.setRequestMethod("PUT");
    connection.setConnectTimeout(2_000);
    connection.setReadTimeout(10_000);
    int status = connection.getResponseCode();
    connection.disconnect();
    if (status != 200) {
      throw new IllegalStateException(
          "Cannot create bucket " + BUCKET + " at " + endpoint + ": HTTP " + status);
    }
  }

  private static void awaitReady(URI endpoint, Process process, Path log) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "S3Proxy exited with " + process.exitValue() + " while starting:\n" + tail(log));
      }
      try {
        HttpURLConnection connection =
            (HttpURLConnection) endpoint.resolve("/").toURL().openConnection();
        connection.setConnectTimeout(1_000);
        connection.setReadTimeout(5_000);
        connection.getResponseCode(); // any HTTP answer: the server is up
        connection.disconnect();
        return;
      } catch (IOException notYet) {
        try {
          process.waitFor(100, TimeUnit.MILLISECONDS); // readiness poll of a child process
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while starting S3Proxy", e);
        }
      }
    }
    throw new IllegalStateException("S3Proxy did not answer within 60 s:\n" + tail(log));
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    }
  }
}
