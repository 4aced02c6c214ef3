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
package dev.fenceline.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server for tests, started once per test JVM as a child process (they cannot share a
 * classpath with each other or with the SDK) and stopped when the JVM exits. The jars are copied to
 * {@code target/s3-servers} by the build (system property {@code fenceline.s3-servers}).
 */
public final class S3TestServer {

  /** The servers the tests run against. */
  public enum Kind {
    /** Adobe S3Mock 4.8 (Spring Boot): honours conditional writes. */
    S3MOCK("s3mock.jar"),
    /** S3Proxy 4.1.0 on a transient store: honours conditional writes. */
    S3PROXY("s3proxy.jar"),
    /** S3Proxy 2.6.0: silently ignores conditional writes (every conditional PUT overwrites). */
    S3PROXY_WITHOUT_CONDITIONS("s3proxy-without-conditions.jar");

    private final String jar;

    Kind(String jar) {
      this.jar = jar;
    }
  }

  private static final Map<Kind, S3TestServer> STARTED = new EnumMap<>(Kind.class);
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private final Kind kind;
  private final URI endpoint;
  private final Process process;
  private final Path log;
  private final S3Client admin;

  private S3TestServer(Kind kind, URI endpoint, Process process, Path log) {
    this.kind = kind;
    this.endpoint = endpoint;
    this.process = process;
    this.log = log;
    this.admin = client(Apache5HttpClient.create());
  }

  /** The server of {@code kind}, started on first use. */
  public static synchronized S3TestServer get(Kind kind) {
    S3TestServer server = STARTED.get(kind);
    if (server == null || !server.process.isAlive()) {
      server = start(kind);
      STARTED.put(kind, server);
    }
    return server;
  }

  /** Which server this is. */
  public Kind kind() {
    return kind;
  }

  /** The server's endpoint, e.g. {@code http://127.0.0.1:40123}. */
  public URI endpoint() {
    return endpoint;
  }

  /** Creates a new, empty bucket with a unique name. */
  public String createBucket() {
    String bucket =
        "fl-" + kind.name().toLowerCase().replace('_', '-') + "-" + BUCKETS.incrementAndGet();
    bucket = bucket.length() > 63 ? bucket.substring(0, 63) : bucket;
    String name = bucket;
    admin.createBucket(b -> b.bucket(name));
    return name;
  }

  /** A store builder on {@code bucket} at this server (path-style, test credentials). */
  public S3Store.Builder storeBuilder(String bucket) {
    return S3Store.builder(bucket)
        .endpoint(endpoint)
        .pathStyle(true)
        .region("us-east-1")
        .credentials(credentials());
  }

  /** A raw SDK client on this server over {@code http}, for setting up and inspecting tests. */
  public S3Client client(SdkHttpClient http) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials())
        .httpClient(http)
        .requestChecksumCalculation(
            software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(
            software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
        .build();
  }

  /** The admin client of this server (shared; do not close). */
  public S3Client admin() {
    return admin;
  }

  private static StaticCredentialsProvider credentials() {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
  }

  private static S3TestServer start(Kind kind) {
    String dir = System.getProperty("fenceline.s3-servers");
    if (dir == null) {
      dir = Paths.get("target", "s3-servers").toString();
    }
    Path jar = Paths.get(dir).resolve(kind.jar).toAbsolutePath();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "Cannot start "
              + kind
              + ": "
              + jar
              + " is missing (run the tests through Maven: mvn -pl adapters/s3 -am verify copies"
              + " the server jars)");
    }
    try {
      // S3Mock listens on two ports; both are chosen while both are held, so they differ.
      int[] ports = freePorts(2);
      int port = ports[0];
      Path work = Files.createTempDirectory("fenceline-" + kind.name().toLowerCase());
      Path log = work.resolve("server.log");
      List<String> command = new ArrayList<>();
      command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-XX:+UseSerialGC");
      switch (kind) {
        case S3MOCK -> {
          command.add("-Xmx512m");
          command.add("-jar");
          command.add(jar.toString());
          command.add("--com.adobe.testing.s3mock.httpPort=" + port);
          command.add("--server.port=" + ports[1]);
          command.add("--com.adobe.testing.s3mock.store.root=" + work.resolve("data"));
          command.add("--spring.main.banner-mode=off");
          command.add("--logging.level.root=WARN");
        }
        case S3PROXY, S3PROXY_WITHOUT_CONDITIONS -> {
          Path properties = work.resolve("s3proxy.properties");
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
          command.add("-Xmx256m");
          command.add("-jar");
          command.add(jar.toString());
          command.add("--properties");
          command.add(properties.toString());
        }
      }
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
      URI endpoint = URI.create("http://127.0.0.1:" + port);
      awaitReady(kind, endpoint, process, log);
      return new S3TestServer(kind, endpoint, process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + kind, e);
    }
  }

  private static void awaitReady(Kind kind, URI endpoint, Process process, Path log)
      throws IOException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            kind + " exited with " + process.exitValue() + " while starting:\n" + tail(log));
      }
      try {
        HttpURLConnection connection = (HttpURLConnection) new URL(endpoint + "/").openConnection();
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(5000);
        connection.getResponseCode(); // any HTTP answer means the server is up
        connection.disconnect();
        return;
      } catch (IOException notYet) {
        // The server does not listen yet: poll again. This is a readiness probe of a child
        // process, not a test's ordering.
        try {
          process.waitFor(200, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while starting " + kind, e);
        }
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException(kind + " did not answer within 120 s:\n" + tail(log));
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  /**
   * {@code count} different free loopback ports. The sockets stay open until all are chosen: a port
   * taken by binding port 0 and closing at once may be handed out again by the next bind.
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
  public String toString() {
    return kind + " at " + endpoint + " (log " + log + ")";
  }
}
