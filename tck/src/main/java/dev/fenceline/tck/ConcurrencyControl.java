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
package dev.fenceline.tck;

/**
 * How a store under test serializes two fenced steps on the same resource. Every contract subclass
 * declares it, since the contract's concurrency tests differ in one point only: a {@link #LOCKING}
 * store must make the second writer wait, a {@link #COMPARE_AND_SWAP} store must not. Both must
 * give linearizable outcomes: the two steps' results are as if one ran entirely before the other.
 */
public enum ConcurrencyControl {

  /**
   * A writer locks the resource's control record from its epoch check to its commit (a row lock, a
   * database write lock, a mutex); a second writer waits for the lock.
   */
  LOCKING,

  /**
   * A writer reads the resource's state, decides, and commits with a compare-and-swap on the
   * version it read (S3 {@code If-Match}, ZooKeeper versions, etcd revisions). Nobody waits: when
   * the swap fails because another step committed in between, the writer reads again and decides
   * again.
   */
  COMPARE_AND_SWAP
}
