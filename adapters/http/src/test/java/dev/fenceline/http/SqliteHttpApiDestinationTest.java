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
