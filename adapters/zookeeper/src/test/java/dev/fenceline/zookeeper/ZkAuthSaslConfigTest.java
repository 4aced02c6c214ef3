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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fenceline.spi.StoreException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What {@code sasl(loginContext)} hands to the ZooKeeper client. The ensemble here has no SASL, so
 * the client's SASL login fails (no JAAS file in this JVM) and it goes on unauthenticated: the
 * client settings are checked, not a SASL login.
 */
class ZkAuthSaslConfigTest {

  private ZkTestStores stores;

  @BeforeEach
  void open() {
    stores = new ZkTestStores(ZkTestStores.shared(), "sasl");
  }

  @AfterEach
  void close() {
    stores.close();
  }

  private static ZKClientConfig clientConfig(ZkStore store) throws Exception {
    return store.client().getZookeeperClient().getZooKeeper().getClientConfig();
  }

  @Test
  void aSaslLoginContextEnablesClientSaslWithThatJaasSection() throws Exception {
    ZkStore store = stores.open(stores.builder().sasl("FencelineClient").acl(ZkStore.Acl.OPEN));

    ZKClientConfig config = clientConfig(store);
    assertThat(config.getProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY)).isEqualTo("true");
    assertThat(config.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY))
        .isEqualTo("FencelineClient");
    assertThat(config.isSaslClientEnabled()).isTrue();
  }

  @Test
  void withoutSaslTheClientDoesNotTrySasl() throws Exception {
    ZkStore store = stores.store();

    assertThat(clientConfig(store).isSaslClientEnabled()).isFalse();
  }

  @Test
  void aFailedSaslLoginWithACreatorAclIsRefusedWithTheFix() {
    // No JAAS file: the client logs in without an identity, and an auth ACL cannot be set.
    Throwable refused = catchThrowable(() -> stores.open(stores.builder().sasl("FencelineClient")));

    assertThat(refused)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("INVALIDACL")
        .hasMessageContaining("no authenticated identity")
        .hasMessageContaining("java.security.auth.login.config");
  }
}
