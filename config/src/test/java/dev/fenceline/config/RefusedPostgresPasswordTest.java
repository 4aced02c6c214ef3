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
package dev.fenceline.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 7: a PostgreSQL server refuses the password {@code postgres} of user {@code
 * postgres}. The refusal is reported with every word intact (the old mask printed "user ****" and
 * "jdbc:****ql"), and the password is not shown as a value.
 */
class RefusedPostgresPasswordTest {

  @TempDir Path directory;

  /** Speaks just enough of the PostgreSQL protocol to ask for a password and refuse it. */
  private static final class RefusingServer implements AutoCloseable {
    final ServerSocket socket;
    final List<String> passwords = new CopyOnWriteArrayList<>();
    final Thread acceptor;

    RefusingServer() throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      acceptor = new Thread(this::serve, "refusing-postgres");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket client = socket.accept()) {
          client.setSoTimeout(5000);
          refuse(new DataInputStream(client.getInputStream()), client);
        } catch (IOException e) {
          // The next connection, or closed.
        }
      }
    }

    private void refuse(DataInputStream in, Socket client) throws IOException {
      DataOutputStream out = new DataOutputStream(client.getOutputStream());
      while (true) {
        int length = in.readInt();
        int code = in.readInt();
        in.readFully(new byte[length - 8]);
        if (code == 80877103 || code == 80877104) { // SSLRequest, GSSENCRequest: no
          out.writeByte('N');
          out.flush();
          continue;
        }
        break; // the startup message
      }
      out.writeByte('R'); // AuthenticationCleartextPassword
      out.writeInt(8);
      out.writeInt(3);
      out.flush();
      if (in.readByte() != 'p') {
        return;
      }
      byte[] password = new byte[in.readInt() - 4];
      in.readFully(password);
      passwords.add(new String(password, 0, password.length - 1, UTF_8));
      ByteArrayOutputStream fields = new ByteArrayOutputStream();
      for (String field :
          new String[] {
            "SFATAL", "VFATAL", "C28P01", "Mpassword authentication failed for user \"postgres\""
          }) {
        fields.writeBytes(field.getBytes(UTF_8));
        fields.write(0);
      }
      fields.write(0);
      out.writeByte('E');
      out.writeInt(4 + fields.size());
      out.write(fields.toByteArray());
      out.flush();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void theRefusalIsReportedIntactAndThePasswordIsNotShown() throws Exception {
    try (RefusingServer server = new RefusingServer()) {
      String yaml =
          """
          stores:
            main:
              type: jdbc
              url: jdbc:postgresql://127.0.0.1:%d/postgres
              user: postgres
              password: ${PG_PASSWORD}
              connect-timeout: 1s
              login-timeout: 2s
          issuer: main
          """
              .formatted(server.socket.getLocalPort());
      Throwable error;
      try (FencelineConfig config =
          ConfigFiles.load(directory, yaml, Map.of("PG_PASSWORD", "postgres"))) {
        error = catchThrowable(config::describe);
      }

      assertThat(server.passwords).as("the password reached the server").contains("postgres");
      assertThat(error).isNotNull();
      StringWriter trace = new StringWriter();
      error.printStackTrace(new PrintWriter(trace));
      String shown = error.getMessage() + "\n" + trace;
      assertThat(error.getMessage())
          .contains("Cannot open store stores.main (jdbc)")
          .contains("jdbc:postgresql://127.0.0.1:" + server.socket.getLocalPort() + "/postgres");
      // The driver's own words reach the stack trace unchanged (the cause is kept: nothing in it
      // needed masking).
      assertThat(shown)
          .contains("PSQLException: FATAL: password authentication failed for user \"postgres\"")
          .doesNotContain(Secrets.MASK)
          .doesNotContain("password=postgres")
          .doesNotContain(":postgres@");
    }
  }
}
