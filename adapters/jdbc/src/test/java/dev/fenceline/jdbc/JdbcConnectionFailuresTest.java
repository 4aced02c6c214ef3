package dev.fenceline.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.ResourceId;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the store reports when the connection misbehaves around a commit. */
class JdbcConnectionFailuresTest {

  @TempDir Path directory;

  /** A data source whose connections fail to close (after really closing). */
  private DataSource closeFailing(String url) {
    return (DataSource)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("getConnection")) {
                throw new UnsupportedOperationException(method.getName());
              }
              Connection real = DriverManager.getConnection(url);
              return Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (connectionProxy, call, callArgs) -> {
                    try {
                      Object result = call.invoke(real, callArgs);
                      if (call.getName().equals("close")) {
                        throw new SQLException("network blip while closing");
                      }
                      return result;
                    } catch (InvocationTargetException e) {
                      throw e.getCause();
                    }
                  });
            });
  }

  @Test
  void aCommittedWriteIsReportedAppliedEvenIfClosingTheConnectionFails() {
    String url = "jdbc:sqlite:" + directory.resolve("fenceline.db");
    JdbcStore.sqlite(directory.resolve("fenceline.db")).close();
    try (JdbcStore store =
        JdbcStore.builder().dataSource(closeFailing(url), "flaky pool").build()) {
      ResourceId resource = ResourceId.of("nightly-report");

      var outcome =
          store
              .pointerStore("reports")
              .write(
                  new FencingToken(store.id(), resource, Epoch.of(1), "worker-a"),
                  OperationId.of("op"),
                  Pointer.to("published"));

      assertThat(outcome).isInstanceOf(Applied.class);
      assertThat(store.pointerStore("reports").lookup(resource, OperationId.of("op")))
          .contains(((Applied) outcome).receipt());
    }
  }
}
