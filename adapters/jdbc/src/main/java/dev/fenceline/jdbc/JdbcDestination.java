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
package dev.fenceline.jdbc;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.WriteOutcome;

/**
 * A natively fenced destination in a SQL database: your {@link JdbcChange} runs in the same
 * transaction that locks the resource's control row, checks the epoch and records the operation ID
 * (R3). Get one from {@link JdbcStore#destination(String)}; its name scopes the operation records.
 * A change made with {@link JdbcChange#fingerprinted} records its request fingerprint, and a retry
 * with another fingerprint is refused ({@link dev.fenceline.spi.OperationConflictException}).
 * Guarantee: {@link dev.fenceline.spi.Guarantee#FENCED} for changes made through the given
 * connection; anything the change does outside the database (a mail, an HTTP call) is not covered.
 */
public final class JdbcDestination extends FencedJdbcDestination<JdbcChange> {

  JdbcDestination(FencedWrite fencedWrite) {
    super(fencedWrite);
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, JdbcChange change) {
    requireNonNull(change, "change is null");
    return fencedWrite.write(
        token,
        operation,
        change.fingerprint(),
        connection -> change.apply(connection, token, operation));
  }
}
