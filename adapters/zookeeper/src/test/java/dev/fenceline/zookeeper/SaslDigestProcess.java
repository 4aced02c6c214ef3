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
package dev.fenceline.zookeeper;

import dev.fenceline.spi.Lease;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.ACL;

/**
 * Run by {@link ZkAuthSaslDigestTest} in its own JVM, since the JAAS file is JVM-wide: a ZooKeeper
 * server that authenticates with SASL DIGEST-MD5 and a store that logs in with {@code
 * sasl(Client)}. Prints {@code key=value} lines for the test to check; exits 0 if it got to the
 * end.
 */
final class SaslDigestProcess {

  private SaslDigestProcess() {}

  public static void main(String[] args) throws Exception {
    ResourceId resource = ResourceId.of("reports/nightly");
    try (TestingServer server = new TestingServer(true)) {
      ZkStore sasl =
          ZkStore.builder(server.getConnectString())
              .rootPath("/sasl")
              .connectionTimeout(Duration.ofSeconds(10))
              .sasl("Client")
              .build();
      try (sasl) {
        Lease lease =
            sasl.leaseIssuer()
                .tryAcquire(resource, "worker-a", Duration.ofSeconds(30))
                .orElseThrow();
        System.out.println("epoch=" + lease.epoch().value());
        for (String path :
            new String[] {
              sasl.paths().root(), sasl.paths().lease(resource), sasl.paths().holder(resource)
            }) {
          List<String> acls = new ArrayList<>();
          for (ACL acl : sasl.client().getACL().forPath(path)) {
            acls.add(acl.getPerms() + ":" + acl.getId().getScheme() + ":" + acl.getId().getId());
          }
          System.out.println("acl " + path + "=" + acls);
        }
        try (ZkStore anonymous =
            ZkStore.builder(server.getConnectString())
                .rootPath("/sasl")
                .connectionTimeout(Duration.ofSeconds(10))
                .build()) {
          System.out.println("anonymous=opened " + anonymous.id());
        } catch (StoreException e) {
          System.out.println("anonymous=" + e.getMessage());
        }
        System.out.println("epoch-after=" + sasl.leaseIssuer().status(resource).epoch().value());
      }
    }
    System.out.println("done");
    System.exit(0); // the testing server leaves non-daemon threads
  }
}
