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
import dev.fenceline.spi.RequestFingerprint;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * A business change applied by a {@link JdbcDestination}, inside the destination's transaction,
 * after the epoch check and the operation-ID check and before the operation is recorded (R3).
 *
 * <p>Use only the given connection. Do not commit, roll back, change auto-commit or close it: the
 * change must commit together with the epoch check and the operation record or not at all. The
 * connection passed in refuses those calls; the guard is best effort (SQL text such as {@code
 * COMMIT}, or the raw connection reached through {@code unwrap} or {@code
 * Statement.getConnection()}, gets around it, and then a retry could apply the change twice).
 * Throwing aborts the whole step.
 */
@FunctionalInterface
public interface JdbcChange {

  /**
   * Applies the change.
   *
   * @param connection the destination's connection, inside its transaction
   * @param token the token the write carries (its epoch is the registered one)
   * @param operation the operation being applied
   * @return receipt attributes describing what was done (may be empty), stored and replayed on
   *     retries; names follow {@link dev.fenceline.spi.Receipt#attributes()}
   * @throws SQLException to abort the step; nothing is recorded
   */
  Map<String, String> apply(Connection connection, FencingToken token, OperationId operation)
      throws SQLException;

  /**
   * The fingerprint of the request this change carries out, recorded with the operation; empty by
   * default (a retry is then answered with the stored receipt whatever it asks for). Use {@link
   * #fingerprinted} to supply one.
   */
  default Optional<RequestFingerprint> fingerprint() {
    return Optional.empty();
  }

  /**
   * {@code change} with a request fingerprint, for example {@code
   * RequestFingerprint.sha256(reportBytes)}: a retry of the same operation with a different
   * fingerprint is refused with {@link dev.fenceline.spi.OperationConflictException} instead of
   * being answered with the first request's receipt.
   */
  static JdbcChange fingerprinted(RequestFingerprint fingerprint, JdbcChange change) {
    requireNonNull(fingerprint, "fingerprint is null");
    requireNonNull(change, "change is null");
    return new JdbcChange() {
      @Override
      public Map<String, String> apply(
          Connection connection, FencingToken token, OperationId operation) throws SQLException {
        return change.apply(connection, token, operation);
      }

      @Override
      public Optional<RequestFingerprint> fingerprint() {
        return Optional.of(fingerprint);
      }
    };
  }
}
