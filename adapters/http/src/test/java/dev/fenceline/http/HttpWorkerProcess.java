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
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.StepListener;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A worker process for {@link HttpWorkerKillTest}: it sends the test's payment with epoch 1 and
 * intents in a SQLite file, and is killed by the test. With {@code after-intent} it announces
 * {@code PAUSED} once its intent is committed and blocks before sending anything; with {@code
 * in-flight} it sends and waits for an answer the API holds back.
 */
final class HttpWorkerProcess {

  private HttpWorkerProcess() {}

  public static void main(String[] args) throws Exception {
    Path database = Path.of(args[0]);
    URI api = URI.create(args[1]);
    boolean pauseAfterIntent = args[2].equals("after-intent");
    CountDownLatch never = new CountDownLatch(1);
    StepListener steps =
        (step, token, operation) -> {
          if (pauseAfterIntent && step == FencingStep.AFTER_COMMIT) {
            System.out.println("PAUSED");
            System.out.flush();
            try {
              never.await(); // until the test kills this process
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    JdbcStore store = JdbcStore.sqlite(database);
    HttpApiDestination destination =
        HttpApiDestination.builder()
            .name(HttpApiDestinationContract.NAME)
            .baseUri(api)
            .intentStore(store.intentStore(HttpApiDestinationContract.NAME, steps))
            .attemptTimeLimit(Duration.ofMinutes(5))
            .lookup(HttpApiDestinationContract.LOOKUP, "/data/0")
            .build();
    System.out.println(
        "OUTCOME "
            + destination.write(
                new FencingToken(
                    "issuer-1", HttpApiDestinationContract.RESOURCE, Epoch.of(1), "worker-a"),
                HttpApiDestinationContract.OPERATION,
                HttpApiDestinationContract.PAYMENT));
  }
}
