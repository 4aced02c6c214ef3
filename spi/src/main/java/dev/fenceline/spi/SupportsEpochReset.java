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
package dev.fenceline.spi;

/**
 * A destination whose registered epoch an operator can set back: the way out when a resource was
 * locked out (an epoch far ahead of the issuer was registered, for example by a hand-built token
 * before tokens were signed) or when the resource moves to another issuer. Not for applications:
 * setting the epoch below one a stale owner still holds lets that owner write again. Set it to the
 * issuer's current epoch ({@link LeaseIssuer#status}), which no stale owner can exceed.
 *
 * <p>Optional. At a destination that does not implement this interface a registered epoch only
 * grows and a resource stays bound to its first issuer: a resource locked out stays locked out (so
 * sign tokens, {@link TokenKeys}). The conformance kit tests the reset at every destination that
 * implements this interface, and that the epoch and issuer stay at one that does not.
 */
public interface SupportsEpochReset {

  /**
   * Sets the registered epoch of {@code resource} to {@code epoch} and forgets which issuer it was
   * registered with (the next token registers its issuer again), in one atomic step serialized with
   * writes. Logged as a warning with the previous and the new epoch and {@code reason}. Operation
   * records and published pointers are kept.
   *
   * @param reason why, for the log (1 to 200 printable characters)
   * @param resource the resource
   * @param epoch the epoch
   * @return the epoch registered before the reset ({@link Epoch#NONE} if none)
   * @throws UnsupportedCapabilityException if the destination delegates the epoch to a store that
   *     cannot reset it (a staged destination over such a pointer store)
   * @throws StoreException if the store cannot be reached
   */
  Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason);
}
