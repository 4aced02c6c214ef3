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
package dev.fenceline.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executable jar itself ({@code cli/target/fenceline.jar}, run with {@code java -jar} as the
 * {@code ./fenceline} script runs it), against every kind of store the command supports: what the
 * shade configuration leaves out must be nothing a feature loads. The unit tests run the command on
 * the test class path, which still has every dependency; this test, run by failsafe after {@code
 * package}, has only the jar.
 *
 * <p>SQLite, ZooKeeper (a curator-test server), S3 (S3Proxy as a child process) and an HTTP API
 * (the JDK's server) are real. PostgreSQL, SFTP and S3 over https are servers that record the first
 * bytes the command sends and hang up: the PostgreSQL startup message, the SSH identification and a
 * TLS ClientHello show that the driver, JSch and the JDK's TLS path are in the jar and loaded.
 */
@Timeout(300) // a failure detector only
class ShadedJarIT {

  private static final Path JAR =
      Path.of(System.getProperty("fenceline.jar", "target/fenceline.jar"));
  private static final String RESOURCE = "nightly-report";

  private static Process s3proxy;
  private static URI s3endpoint;

  @TempDir Path dir;

  @BeforeAll
  static void startS3Proxy(@TempDir Path work) throws Exception {
    assertThat(JAR)
        .as("the executable jar (build it with ./mvnw -pl cli -am package)")
        .isRegularFile();
    Path jar =
        Path.of(System.getProperty("fenceline.s3-servers", "target/s3-servers"), "s3proxy.jar");
    assertThat(jar).as("S3Proxy, copied by the build").isRegularFile();
    int port = freePort();
    Path properties =
        Files.writeString(
            work.resolve("s3proxy.properties"),
            String.join(
                "\n",
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=none",
                "jclouds.provider=transient-nio2",
                "jclouds.identity=local",
                "jclouds.credential=local",
                ""));
    s3proxy =
        new ProcessBuilder(
                javaBin(),
                "-Xmx256m",
                "-jar",
                jar.toString(),
                "--properties",
                properties.toString())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("s3proxy.log").toFile())
            .start();
    s3endpoint = URI.create("http://127.0.0.1:" + port);
    awaitHttp(s3endpoint, s3proxy, work.resolve("s3proxy.log"));
  }

  @AfterAll
  static void stopS3Proxy() throws Exception {
    if (s3proxy != null) {
      s3proxy.destroy();
      if (!s3proxy.waitFor(10, TimeUnit.SECONDS)) {
        s3proxy.destroyForcibly();
      }
    }
  }

  @Test
  void demoPassesWithTheJar() throws Exception {
    Result demo = run(Map.of(), "demo");

    assertThat(demo.exit()).as(demo.transcript()).isEqualTo(0);
    assertThat(demo.out()).contains("rejected as stale (current 2)").contains("verdict: PASS");
    assertLoadedEverything(demo);
  }

  @Test
  void publishesOnSqliteAndADirectory() throws Exception {
    Path file = config(sqlite("main") + "  reports-dir:\n    type: vfs\n    uri: " + reports(), "");

    Result doctor = run(Map.of(), "doctor", "--config", file.toString());
    Result published = publish(Map.of(), file, "reports", "day,total\n2026-10-27,42\n");

    assertThat(doctor.exit()).as(doctor.transcript()).isEqualTo(0);
    assertThat(doctor.out()).containsPattern("reports +vfs +FENCED_BY_STAGING");
    assertThat(published.exit()).as(published.transcript()).isEqualTo(0);
    assertThat(published.out()).startsWith("applied: " + RESOURCE + " operation op-1");
    assertThat(filesUnder(dir.resolve("reports")))
        .anySatisfy(f -> assertThat(f).content(UTF_8).isEqualTo("day,total\n2026-10-27,42\n"));
    assertLoadedEverything(doctor, published);
  }

  @Test
  void publishesWithTheLeaseAndThePointerInZooKeeper() throws Exception {
    try (TestingServer zookeeper = new TestingServer(true)) {
      Path file =
          config(
              "  zk:\n"
                  + "    type: zookeeper\n"
                  + "    connect-string: "
                  + zookeeper.getConnectString()
                  + "\n    root-path: /shaded-jar\n    connection-timeout: 5s\n"
                  + "  reports-dir:\n    type: vfs\n    uri: "
                  + reports(),
              "    pointer-store: zk\n");
      String issuer = Files.readString(file).replace("issuer: main", "issuer: zk");
      Files.writeString(file, issuer);

      Result published = publish(Map.of(), file, "reports", "zookeeper report\n");

      assertThat(published.exit()).as(published.transcript()).isEqualTo(0);
      assertThat(published.out()).startsWith("applied: " + RESOURCE).contains("epoch=1");
      assertLoadedEverything(published);
    }
  }

  @Test
  void publishesOnS3WithThePointerInTheBucket() throws Exception {
    String bucket = "shaded-jar-" + Long.toHexString(System.nanoTime());
    createBucket(bucket);
    Path file =
        config(
                sqlite("main")
                    + "  bucket:\n    type: s3\n    bucket: "
                    + bucket
                    + "\n    endpoint: "
                    + s3endpoint
                    + "\n    path-style: true\n    region: us-east-1\n",
                "    pointer-store: main\n")
            .toAbsolutePath();
    Files.writeString(file, Files.readString(file).replace("store: reports-dir", "store: bucket"));

    Result published = publish(s3env(), file, "reports", "s3 report\n");

    assertThat(published.exit()).as(published.transcript()).isEqualTo(0);
    assertThat(published.out()).startsWith("applied: " + RESOURCE);
    assertThat(listBucket(bucket)).contains("<Key>");
    assertLoadedEverything(published);
  }

  @Test
  void publishesToAnHttpApi() throws Exception {
    List<String> keys = new CopyOnWriteArrayList<>();
    List<String> bodies = new CopyOnWriteArrayList<>();
    HttpServer api =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    api.createContext(
        "/v1/things",
        exchange -> {
          keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), UTF_8));
          byte[] answer = "{\"id\":\"t-1\"}".getBytes(UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(201, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    api.start();
    try {
      Path file =
          config(
              sqlite("main") + "  reports-dir:\n    type: vfs\n    uri: " + reports(),
              "",
              "  api:\n"
                  + "    type: http\n"
                  + "    base-uri: http://127.0.0.1:"
                  + api.getAddress().getPort()
                  + "/v1\n"
                  + "    max-attempts: 1\n"
                  + "    request:\n      path: \"/things/{resource}\"\n"
                  + "allow-fenced-at-intent: true\n");

      Result published = publish(Map.of(), file, "api", "{\"total\":42}");

      assertThat(published.exit()).as(published.transcript()).isEqualTo(0);
      assertThat(bodies).containsExactly("{\"total\":42}");
      assertThat(keys).singleElement().asString().isNotBlank();
      assertLoadedEverything(published);
    } finally {
      api.stop(0);
    }
  }

  @Test
  void speaksPostgresqlsProtocol() throws Exception {
    try (FirstBytes postgres = new FirstBytes()) {
      Path file =
          config(
              "  main:\n    type: jdbc\n    url: jdbc:postgresql://127.0.0.1:"
                  + postgres.port()
                  + "/fenceline?sslmode=disable\n    user: shaded-jar-user\n    password: pw\n"
                  + "    connect-timeout: 2s\n    login-timeout: 2s\n"
                  + "  reports-dir:\n    type: vfs\n    uri: "
                  + reports(),
              "");

      Result doctor = run(Map.of(), "doctor", "--config", file.toString());

      // A PostgreSQL StartupMessage: length, protocol 3.0, then user\0shaded-jar-user\0...
      assertThat(postgres.first(Duration.ofSeconds(10), doctor))
          .as(doctor.transcript())
          .startsWith("\0\0")
          .contains("\0\3\0\0")
          .contains("user\0shaded-jar-user\0");
      assertLoadedEverything(doctor);
    }
  }

  @Test
  void speaksSshToAnSftpDirectory() throws Exception {
    try (FirstBytes sftp = new FirstBytes()) {
      Path file =
          config(
              sqlite("main")
                  + "  reports-dir:\n    type: vfs\n    uri: sftp://127.0.0.1:"
                  + sftp.port()
                  + "/srv/reports\n    user: u\n    password: pw\n    timeout: 3s\n",
              "");

      Result published = publish(Map.of(), file, "reports", "sftp report\n");

      assertThat(sftp.first(Duration.ofSeconds(10), published))
          .as(published.transcript())
          .startsWith("SSH-2.0-");
      assertLoadedEverything(published);
    }
  }

  @Test
  void opensTlsToAnHttpsS3Endpoint() throws Exception {
    try (FirstBytes https = new FirstBytes()) {
      Path file =
          config(
              sqlite("main")
                  + "  bucket:\n    type: s3\n    bucket: tls-check\n    endpoint: https://127.0.0.1:"
                  + https.port()
                  + "\n    path-style: true\n    region: us-east-1\n",
              "    pointer-store: main\n");
      Files.writeString(
          file, Files.readString(file).replace("store: reports-dir", "store: bucket"));

      Result published = publish(s3env(), file, "reports", "tls report\n");

      // A TLS record of type handshake (22), version 3.x, carrying a ClientHello (1).
      String hello = https.first(Duration.ofSeconds(10), published);
      assertThat(hello.length()).as(published.transcript()).isGreaterThan(6);
      assertThat(hello.charAt(0)).isEqualTo((char) 22);
      assertThat(hello.charAt(1)).isEqualTo((char) 3);
      assertThat(hello.charAt(5)).isEqualTo((char) 1);
      assertLoadedEverything(published);
    }
  }

  // ----- helpers

  /** No class the command needed was missing from the jar. */
  private static void assertLoadedEverything(Result... results) {
    for (Result result : results) {
      assertThat(result.out() + result.err())
          .as(result.transcript())
          .doesNotContain(
              "NoClassDefFoundError",
              "ClassNotFoundException",
              "UnsatisfiedLinkError",
              "No native library",
              "No suitable driver",
              "ServiceConfigurationError");
    }
  }

  private Path config(String stores, String reportsKeys) throws IOException {
    return config(stores, reportsKeys, "");
  }

  private Path config(String stores, String reportsKeys, String extra) throws IOException {
    Files.createDirectories(dir.resolve("reports"));
    return Files.writeString(
        dir.resolve("fenceline.yaml"),
        "stores:\n"
            + stores
            + (stores.endsWith("\n") ? "" : "\n")
            + "issuer: main\n"
            + "lease:\n  ttl: 30s\n  holder: shaded-jar-test\n"
            + "destinations:\n"
            + "  reports:\n"
            + "    store: reports-dir\n"
            + reportsKeys
            + extra);
  }

  private String sqlite(String name) {
    return "  "
        + name
        + ":\n    type: jdbc\n    url: jdbc:sqlite:"
        + dir.resolve("fenceline.db")
        + "\n";
  }

  private String reports() {
    return dir.resolve("reports").toUri() + "\n";
  }

  private Map<String, String> s3env() {
    return Map.of(
        "AWS_ACCESS_KEY_ID", "local",
        "AWS_SECRET_ACCESS_KEY", "local",
        "XDG_CACHE_HOME", dir.resolve("xdg-cache").toString());
  }

  private Result publish(Map<String, String> env, Path file, String destination, String content)
      throws Exception {
    Path report = Files.writeString(dir.resolve("report-" + System.nanoTime() + ".txt"), content);
    return run(
        env,
        "publish",
        "--config",
        file.toString(),
        "--destination",
        destination,
        "--resource",
        RESOURCE,
        "--operation",
        "op-1",
        report.toString());
  }

  record Result(int exit, String out, String err) {
    String transcript() {
      return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  /** {@code java -jar fenceline.jar args...} in {@link #dir}, with only {@code env} added. */
  private Result run(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", JAR.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(n -> n.startsWith("FENCELINE_") || n.startsWith("AWS_"));
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(240, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "fenceline "
              + String.join(" ", args)
              + " did not end within 240 s:\n"
              + Files.readString(out)
              + Files.readString(err));
    }
    return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static List<Path> filesUnder(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  private static void createBucket(String bucket) throws IOException {
    HttpURLConnection put = (HttpURLConnection) new URL(s3endpoint + "/" + bucket).openConnection();
    put.setRequestMethod("PUT");
    put.setFixedLengthStreamingMode(0);
    put.setDoOutput(true);
    put.getOutputStream().close();
    assertThat(put.getResponseCode()).as("create bucket " + bucket).isEqualTo(200);
    put.disconnect();
  }

  private static String listBucket(String bucket) throws IOException {
    HttpURLConnection get =
        (HttpURLConnection) new URL(s3endpoint + "/" + bucket + "?list-type=2").openConnection();
    try (InputStream body = get.getInputStream()) {
      return new String(body.readAllBytes(), UTF_8);
    } finally {
      get.disconnect();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void awaitHttp(URI endpoint, Process process, Path log) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("S3Proxy exited:\n" + Files.readString(log));
      }
      try {
        HttpURLConnection probe = (HttpURLConnection) new URL(endpoint + "/").openConnection();
        probe.setConnectTimeout(1000);
        probe.getResponseCode(); // any answer: it listens
        probe.disconnect();
        return;
      } catch (IOException notYet) {
        // Not listening yet: a readiness probe of a child process.
        process.waitFor(200, TimeUnit.MILLISECONDS);
      }
    }
    throw new IllegalStateException(
        "S3Proxy did not answer within 120 s:\n" + Files.readString(log));
  }

  /**
   * A server on 127.0.0.1 that keeps the first bytes its first client sends (up to 512, or what
   * arrives within a second after the first) and hangs up.
   */
  private static final class FirstBytes implements AutoCloseable {
    private final ServerSocket socket;
    private final CompletableFuture<String> first = new CompletableFuture<>();

    FirstBytes() throws IOException {
      socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
      Thread thread =
          new Thread(
              () -> {
                try (Socket client = socket.accept()) {
                  client.setSoTimeout(1000);
                  byte[] buffer = new byte[512];
                  int n = client.getInputStream().read(buffer);
                  int total = Math.max(n, 0);
                  try {
                    while (total < buffer.length && n > 0) {
                      n = client.getInputStream().read(buffer, total, buffer.length - total);
                      total += Math.max(n, 0);
                    }
                  } catch (java.net.SocketTimeoutException enough) {
                    // Nothing more within a second: the client waits for the server's answer.
                  }
                  first.complete(new String(buffer, 0, total, ISO_8859_1));
                } catch (IOException e) {
                  first.completeExceptionally(new UncheckedIOException(e));
                }
              },
              "first-bytes");
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    /** What the first client sent; fails, with what the command printed, if none connected. */
    String first(Duration timeout, Result command) throws Exception {
      try {
        return first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError(
            "nothing connected within " + timeout + "\n" + command.transcript());
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
