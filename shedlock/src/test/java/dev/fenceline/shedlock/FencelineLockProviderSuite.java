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
package dev.fenceline.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.ResourceId;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;

/**
 * ShedLock's own provider suite ({@link AbstractExtensibleLockProviderIntegrationTest}, which
 * includes {@code AbstractLockProviderIntegrationTest} and its fuzz test), unchanged, against a
 * {@link FencelineLockProvider} over the subclass's issuer; locked means held by the issuer's
 * clock.
 */
abstract class FencelineLockProviderSuite extends AbstractExtensibleLockProviderIntegrationTest {

  private FencelineLockProvider provider;

  /** The issuer under test, over a store the subclass opens once for all its tests. */
  abstract LeaseIssuer issuer();

  @Override
  protected ExtensibleLockProvider getLockProvider() {
    if (provider == null) {
      provider = new FencelineLockProvider(issuer());
    }
    return provider;
  }

  @Override
  protected void assertLocked(String lockName) {
    assertThat(issuer().status(ResourceId.of(lockName)).held()).isTrue();
  }

  @Override
  protected void assertUnlocked(String lockName) {
    assertThat(issuer().status(ResourceId.of(lockName)).held()).isFalse();
  }
}
