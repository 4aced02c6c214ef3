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
package com.example.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * R1 and R11 d across a crash: the server is killed with SIGKILL right after acknowledging a write
 * and a registration, and started again on the same AOF. (A SIGKILL loses what the process had not
 * handed to the kernel; {@code appendfsync always} also covers a crash of the machine, which a test
 * cannot simulate here.)
 */
class RedisCrashTest {

  @TempDir Path data;
  private RedisServer server;

  @AfterEach
  void stopRedis() {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void anAcknowledgedWriteItsReceiptAndANewerRegistrationSurviveSigkill() {
    ResourceId resource = ResourceId.of("ledger/acct-42");
    FencingToken a = new FencingToken("issuer-1", resource, Epoch.of(7), "worker-a");
    FencingToken b = new FencingToken("issuer-1", resource, Epoch.of(8), "worker-b");
    server = RedisServer.start(data);
    Receipt receipt;
    try (RedisClient client = RedisClient.create("127.0.0.1", server.port())) {
      RedisDestination ledger = open(client, server);
      receipt = ((Applied) ledger.write(a, OperationId.of("posting-1"), "balance 100")).receipt();
      assertThat(ledger.register(b)).isEqualTo(new Registered(resource, Epoch.of(8), Epoch.of(7)));
    }

    server.kill();
    server = RedisServer.start(data);

    try (RedisClient client = RedisClient.create("127.0.0.1", server.port())) {
      RedisDestination ledger = open(client, server);
      assertThat(ledger.currentEpoch(resource)).isEqualTo(Epoch.of(8));
      assertThat(ledger.lookup(resource, OperationId.of("posting-1"))).contains(receipt);
      assertThat(client.hget(RedisFenceStore.documentKey("ledger", resource), "value"))
          .isEqualTo("balance 100");
      assertThat(ledger.write(a, OperationId.of("posting-2"), "balance 0"))
          .isEqualTo(new RejectedStale(resource, Epoch.of(7), Epoch.of(8)));
      assertThat(ledger.write(b, OperationId.of("posting-1"), "balance 100"))
          .isEqualTo(new AlreadyApplied(receipt));
    }
  }

  private static RedisDestination open(RedisClient client, RedisServer server) {
    return RedisFenceStore.open(client, "redis://127.0.0.1:" + server.port())
        .destination("ledger", StepListener.NONE, Optional.empty());
  }
}
