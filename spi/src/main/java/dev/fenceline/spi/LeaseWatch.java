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
 * A running {@link LeaseIssuer#watch}: closing it stops the issuer's signals for that lease and
 * frees what the issuer kept for it. Idempotent; never throws.
 */
@FunctionalInterface
public interface LeaseWatch extends AutoCloseable {

  /** A watch that watches nothing: what issuers without signals return. */
  LeaseWatch NONE = () -> {};

  /** Stops the signals for the lease. */
  @Override
  void close();
}
