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

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import org.apache.curator.RetryPolicy;
import org.apache.curator.ensemble.fixed.FixedEnsembleProvider;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;

/**
 * The settings of the Curator client a {@link ZkStore} builds and owns ({@link
 * ZkStore#builder(String)}), and the client's start and close. A store on a client passed in uses
 * that client's own settings instead.
 *
 * @param connectString {@code host:port,host:port,...}, optionally with a chroot suffix
 * @param followEnsembleConfig whether the client follows the ensemble's configuration of addresses
 * @param sessionTimeout the session timeout the client asks for
 * @param connectionTimeout how long to wait for a connection, at open and for each try
 * @param authScheme the authentication scheme, or null
 * @param authValue the authentication value of {@code authScheme} (never shown), or null
 * @param saslLoginContext the JAAS login context for SASL, or null for no SASL
 */
record OwnedClient(
    String connectString,
    boolean followEnsembleConfig,
    Duration sessionTimeout,
    Duration connectionTimeout,
    String authScheme,
    byte[] authValue,
    String saslLoginContext) {

  OwnedClient {
    requireNonNull(connectString, "connectString is null");
  }

  /**
   * Builds and starts the client: its nodes get {@code acls}, its operations retry by {@code
   * retry}, and each request waits at most {@link ZkStore#REQUEST_TIMEOUT} for its answer.
   */
  CuratorFramework start(List<ACL> acls, RetryPolicy retry) {
    CuratorFrameworkFactory.Builder curator =
        CuratorFrameworkFactory.builder()
            .ensembleProvider(new FixedEnsembleProvider(connectString, followEnsembleConfig))
            .ensembleTracker(followEnsembleConfig)
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs((int) connectionTimeout.toMillis())
            .retryPolicy(retry)
            .aclProvider(provider(acls));
    if (authScheme != null) {
      curator.authorization(authScheme, authValue);
    }
    ZKClientConfig config = new ZKClientConfig();
    // Without it a request queued while the connection is down waits for the client's own
    // connect attempt, up to the whole session timeout, on every try of Curator's retry loop.
    config.setProperty(
        ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT,
        Long.toString(ZkStore.REQUEST_TIMEOUT.toMillis()));
    if (saslLoginContext != null) {
      config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "true");
      config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, saslLoginContext);
    } else {
      config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
    }
    curator.zkClientConfig(config);
    CuratorFramework client = curator.build();
    client.start();
    return client;
  }

  /**
   * Closes a client whose store failed to open on another thread: closing sends the end of the
   * session and waits up to the request timeout for its answer, which a server that does not answer
   * never sends, so the error reaches the caller after the time it names.
   */
  static void closeWithoutWaiting(CuratorFramework client) {
    Thread closer = new Thread(client::close, "fenceline-zk-close");
    closer.setDaemon(true);
    closer.start();
  }

  private static ACLProvider provider(List<ACL> acls) {
    return new ACLProvider() {
      @Override
      public List<ACL> getDefaultAcl() {
        return acls;
      }

      @Override
      public List<ACL> getAclForPath(String path) {
        return acls;
      }
    };
  }

  @Override
  public String toString() {
    return "OwnedClient[" + connectString + "]";
  }
}
