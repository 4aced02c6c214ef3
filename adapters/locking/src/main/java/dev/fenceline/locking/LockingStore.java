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
package dev.fenceline.locking;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import java.util.Optional;

/**
 * The store operations {@link LockingSteps} runs, in its order, for a store that locks rows inside
 * transactions (a SQL database: each method is a statement or two). The adapter writes these; the
 * steps decide what to call when, so the order of the fenced step (R2 to R4) is not the adapter's
 * to get wrong.
 *
 * <p>The store keeps two kinds of rows:
 *
 * <ul>
 *   <li>a control row per resource ({@link ControlRow}: registered epoch, bound issuer), shared by
 *       every destination of the store, e.g. {@code CREATE TABLE app_fence_resource (resource
 *       VARCHAR PRIMARY KEY, epoch BIGINT NOT NULL, issuer VARCHAR)};
 *   <li>an operation record per destination name, resource and operation ({@link
 *       RecordedOperation}), with that triple as its primary key, never updated.
 * </ul>
 *
 * <p>Every method except {@link #begin} runs inside the transaction {@link #begin} returned, and
 * the change of a write runs in it too, so the epoch check, the change and the operation record
 * commit together or not at all. A method may throw any exception: the steps roll the transaction
 * back and report a checked exception as a {@link StoreException} naming {@link #description()}
 * (nothing changed); unchecked exceptions (a {@link StoreException} the adapter built, a bug) pass
 * unchanged. Only {@link #commit} can leave the outcome unknown.
 *
 * @param <T> the store's transaction, e.g. a JDBC {@code Connection} with auto-commit off
 */
public interface LockingStore<T> {

  /**
   * What the store is, for messages, e.g. {@code h2 database jdbc:h2:/var/lib/app/fence}: never a
   * password or a token.
   */
  String description();

  /**
   * Begins a transaction, e.g. takes a connection from a pool and turns auto-commit off. The steps
   * end every transaction they begin with {@link #commit} or {@link #rollback}.
   */
  T begin() throws Exception;

  /**
   * Locks the control row of {@code resource} until the transaction ends, creating it as {@link
   * ControlRow#NONE} if it is missing, and returns it as locked (e.g. {@code MERGE} the missing
   * row, then {@code SELECT ... FOR UPDATE}). A second transaction locking the same row waits here
   * until the first ends: this wait is what serializes two steps on one resource, so it must be a
   * real lock of the database, not a read.
   */
  ControlRow lockControlRow(T transaction, ResourceId resource) throws Exception;

  /**
   * Reads the control row of {@code resource} without locking or creating it and without waiting
   * for a writer that holds it (a plain {@code SELECT} under read committed), for {@link
   * LockingSteps#currentEpoch}.
   *
   * @return the row as last committed, or empty if none exists
   */
  Optional<ControlRow> readControlRow(T transaction, ResourceId resource) throws Exception;

  /**
   * Sets the control row of {@code resource}, which this transaction locked, to {@code row}: a
   * newer epoch and its issuer when a token registers, or (epoch reset only) any epoch with no
   * issuer.
   */
  void writeControlRow(T transaction, ResourceId resource, ControlRow row) throws Exception;

  /**
   * The record of {@code operation} at destination {@code destination}, if one was committed
   * (records of other destination names do not count). Called while the control row is locked, so
   * no other step can record the operation concurrently.
   */
  Optional<RecordedOperation> findOperation(
      T transaction, String destination, ResourceId resource, OperationId operation)
      throws Exception;

  /**
   * Inserts {@code record} (its receipt names the destination, resource and operation, its epoch,
   * time and attributes; store them all, and read them back exactly in {@link #findOperation}).
   */
  void recordOperation(T transaction, RecordedOperation record) throws Exception;

  /**
   * Commits and ends the transaction. If it throws, the steps call {@link #rollback} next. A
   * failure is reported with {@link StoreException#outcomeUnknown()} true (the commit may have
   * happened), unless it is a {@link StoreException} the store built, which is reported as it is:
   * throw one with {@code outcomeUnknown} false only where the store knows nothing was committed.
   */
  void commit(T transaction) throws Exception;

  /**
   * Rolls back and ends the transaction, e.g. {@code rollback()} and {@code close()} the
   * connection, whatever state it is in (also after {@link #commit} failed). A failure here is
   * logged at {@code DEBUG} and otherwise ignored: the transaction was not committed.
   */
  void rollback(T transaction) throws Exception;
}
