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

import dev.fenceline.spi.StoreException;
import org.apache.zookeeper.KeeperException;

/**
 * Classifies the failures of a {@link ZkStore}'s ZooKeeper calls: a lost connection or session
 * during a write leaves its outcome unknown; a refused authorization or ACL names the fix. Never
 * shows credentials.
 */
final class ZkFailures {

  private final String shown;

  /**
   * @param shown the store's location as shown in messages ({@link ZkStore#location()})
   */
  ZkFailures(String shown) {
    this.shown = shown;
  }

  /**
   * The failure of {@code action}, classified: a lost connection or session during a write leaves
   * its outcome unknown; a refused authorization names the fix. Never shows credentials.
   */
  StoreException failure(String action, Exception e, boolean write) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (e instanceof StoreException store) {
      return store;
    }
    String reason;
    boolean unknown = false;
    if (e instanceof KeeperException keeper) {
      KeeperException.Code code = keeper.code();
      switch (code) {
        case CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, SESSIONMOVED, REQUESTTIMEOUT -> {
          reason =
              "the connection to the ensemble was lost ("
                  + code
                  + "); is a quorum up and reachable?";
          unknown = write;
        }
        case NOAUTH, AUTHFAILED ->
            reason =
                "ZooKeeper refused access ("
                    + code
                    + "): the node's ACL does not admit this client; authenticate as the user the"
                    + " nodes were created with (digest or SASL), or use another root path";
        case INVALIDACL ->
            reason =
                "ZooKeeper refused the ACL (INVALIDACL): the creator ACL needs an authenticated"
                    + " identity and the client has no authenticated identity (check auth-digest, or"
                    + " for SASL the JAAS file in -Djava.security.auth.login.config and its login"
                    + " context; the client goes on unauthenticated when the SASL login fails)";
        default -> reason = "ZooKeeper answered " + code;
      }
    } else {
      reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      unknown = write;
    }
    String suffix =
        unknown ? " (the write may have been applied: look the operation up or retry it)" : "";
    return new StoreException(
        "Cannot " + action + " at " + shown + ": " + reason + suffix, e, unknown);
  }
}
