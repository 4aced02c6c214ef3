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
package dev.fenceline.chaos.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {

  private static final int READ_TIMEOUT_MILLIS = 10_000;

  private CounterServer server;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    server = new CounterServer();
    proxy = FaultProxy.start("test-proxy", "127.0.0.1", server.port());
  }

  @AfterEach
  void stop() {
    proxy.close();
    server.close();
  }

  @Test
  void forwardsRequestsAndAnswers() throws IOException {
    try (Client client = new Client(proxy)) {
      assertThat(client.call("a")).isEqualTo("1 a");
      assertThat(client.call("b")).isEqualTo("2 b");
    }
    assertThat(server.count()).isEqualTo(2);
    assertThat(proxy.acceptedConnections()).isEqualTo(1);
  }

  @Test
  void cutClosesOpenConnectionsAndRefusesNewOnesUntilHeal() throws IOException {
    try (Client open = new Client(proxy)) {
      assertThat(open.call("before")).isEqualTo("1 before");
      proxy.cut();
      assertThat(proxy.openConnections()).isZero();
      assertThat(open.callFails("during")).isTrue();
    }
    try (Client refused = new Client(proxy)) {
      assertThat(refused.callFails("new")).isTrue();
    }
    assertThat(proxy.refusedConnections()).isEqualTo(1);
    assertThat(server.count()).isEqualTo(1); // nothing reached the server while cut

    proxy.heal();
    try (Client healed = new Client(proxy)) {
      assertThat(healed.call("after")).isEqualTo("2 after");
    }
  }

  @Test
  void delayHoldsBytesBothWaysInOrder() throws IOException {
    Duration delay = Duration.ofMillis(150);
    proxy.delay(delay);
    try (Client client = new Client(proxy)) {
      long started = System.nanoTime();
      client.send("x");
      client.send("y");
      client.send("z");
      assertThat(client.answer()).isEqualTo("1 x");
      assertThat(client.answer()).isEqualTo("2 y");
      assertThat(client.answer()).isEqualTo("3 z");
      // Each byte was held on the way in and on the way out: a lower bound, never flaky.
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(delay.multipliedBy(2));
    }
  }

  @Test
  void healReleasesBytesHeldByADelay() throws IOException {
    proxy.delay(Duration.ofMinutes(5)); // far beyond the client's read timeout
    try (Client client = new Client(proxy)) {
      client.send("held");
      proxy.heal();
      assertThat(client.answer()).isEqualTo("1 held");
    }
  }

  @Test
  void dropAnswersLetsTheRequestLandAndLosesTheAnswer() throws IOException {
    try (Client client = new Client(proxy)) {
      assertThat(client.call("seen")).isEqualTo("1 seen");
      proxy.dropAnswers();
      client.send("landed");
      assertThat(client.answerOrEof()).isNull(); // EOF or reset: no answer
    }
    assertThat(server.count()).isEqualTo(2); // the server counted it before answering
    assertThat(server.received()).containsExactly("seen", "landed");
    assertThat(proxy.droppedAnswers()).isEqualTo(1);

    proxy.heal();
    try (Client client = new Client(proxy)) {
      assertThat(client.call("again")).isEqualTo("3 again");
    }
  }

  @Test
  void closeEndsEveryThread() throws Exception {
    List<Client> clients = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        Client client = new Client(proxy);
        clients.add(client);
        client.call("c" + i);
      }
      proxy.delay(Duration.ofMinutes(5));
      clients.get(0).send("stuck"); // a pump waits in the delay
      assertThat(proxy.liveThreads()).hasSize(1 + 2 * 3);
      proxy.close();
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (!proxy.liveThreads().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(proxy.liveThreads()).isEmpty();
      assertThat(proxy.openConnections()).isZero();
    } finally {
      clients.forEach(Client::close);
    }
  }

  @Test
  void refusesABadPort() {
    assertThatThrownBy(() -> FaultProxy.start("bad", "db", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("db:0");
  }

  /** A client of the counter server: one line out, one line back. */
  private static final class Client implements AutoCloseable {
    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    Client(FaultProxy proxy) throws IOException {
      socket = new Socket(proxy.host(), proxy.port());
      socket.setSoTimeout(READ_TIMEOUT_MILLIS);
      in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      out = socket.getOutputStream();
    }

    void send(String line) throws IOException {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    String answer() throws IOException {
      return in.readLine();
    }

    String answerOrEof() {
      try {
        return in.readLine();
      } catch (IOException e) {
        return null; // reset
      }
    }

    String call(String line) throws IOException {
      send(line);
      return answer();
    }

    boolean callFails(String line) {
      try {
        send(line);
        return in.readLine() == null;
      } catch (IOException e) {
        return true;
      }
    }

    @Override
    public void close() {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closed
      }
    }
  }

  /** Counts each line it receives, then answers "count line". */
  private static final class CounterServer implements AutoCloseable {
    private final ServerSocket listener;
    private final AtomicInteger count = new AtomicInteger();
    private final List<String> received = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    CounterServer() throws IOException {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor = new Thread(this::accept, "counter-accept");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    int count() {
      return count.get();
    }

    synchronized List<String> received() {
      return List.copyOf(received);
    }

    private void accept() {
      while (true) {
        Socket socket;
        try {
          socket = listener.accept();
        } catch (IOException e) {
          return;
        }
        synchronized (this) {
          sockets.add(socket);
        }
        Thread serve = new Thread(() -> serve(socket), "counter-serve");
        serve.setDaemon(true);
        serve.start();
      }
    }

    private void serve(Socket socket) {
      try (socket) {
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        OutputStream out = socket.getOutputStream();
        String line;
        while ((line = in.readLine()) != null) {
          int n;
          synchronized (this) {
            received.add(line);
            n = count.incrementAndGet();
          }
          out.write((n + " " + line + "\n").getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
      } catch (IOException ignored) {
        // the proxy closed the connection
      }
    }

    @Override
    public synchronized void close() {
      try {
        listener.close();
      } catch (IOException ignored) {
        // closed
      }
      for (Socket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closed
        }
      }
    }
  }
}
