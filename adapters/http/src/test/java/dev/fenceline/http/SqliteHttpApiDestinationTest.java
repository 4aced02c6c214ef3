package dev.fenceline.http;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.IntentStore;
import dev.fenceline.spi.StepListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The intent-mode scenarios with the intents in a SQLite file: every {@link #openIntentStore} opens
 * the file with a new {@link JdbcStore}, as a restarted process or another worker would, so the
 * crash and takeover scenarios cross a real restart of the store.
 */
class SqliteHttpApiDestinationTest extends HttpApiDestinationContract {

  @TempDir Path dir;
  private final List<JdbcStore> opened = new ArrayList<>();

  @Override
  IntentStore openIntentStore(String name, StepListener steps) {
    JdbcStore store = JdbcStore.sqlite(dir.resolve("intents.db"));
    opened.add(store);
    return store.intentStore(name, steps);
  }

  @AfterEach
  void closeStores() {
    opened.forEach(JdbcStore::close);
  }
}
