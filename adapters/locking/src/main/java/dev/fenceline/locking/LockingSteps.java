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

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * The fenced step of a {@link Destination} on a store that locks rows in transactions, whatever the
 * store: the counterpart, for row locks, of {@code CasPointerSteps} for compare-and-swap stores.
 * The adapter supplies the statements ({@link LockingStore}) and the change ({@link Change}); these
 * steps call them in the order the TCK's {@code DestinationContract} checks, so a destination built
 * on them needs only to delegate to them:
 *
 * <ol>
 *   <li>refuse a token not signed with the configured {@link TokenKeys} ({@link
 *       UntrustedTokenException}, nothing read);
 *   <li>report {@link FencingStep#BEFORE_LOCK}, then begin a transaction and lock the resource's
 *       control row (the only places a step waits for another writer);
 *   <li>refuse a token of another issuer than the one the row is bound to ({@link
 *       UntrustedTokenException#foreignIssuer});
 *   <li>answer {@link RejectedStale} for an epoch older than the registered one, changing nothing;
 *   <li>register the token's epoch if it is newer (and bind its issuer if none is bound), then
 *       report {@link FencingStep#AFTER_EPOCH_CHECK};
 *   <li>if the operation was recorded at this destination: with another request fingerprint, roll
 *       back (undoing the epoch registered in this step) and throw {@link
 *       OperationConflictException#differentRequest}; else commit (keeping the newer epoch) and
 *       answer {@link AlreadyApplied} with the stored receipt;
 *   <li>otherwise apply the change, record the operation with its receipt and fingerprint, report
 *       {@link FencingStep#AFTER_APPLY}, commit, and answer {@link Applied};
 *   <li>after a commit, report {@link FencingStep#AFTER_COMMIT} before answering.
 * </ol>
 *
 * <p>A step listener or change that throws before the commit rolls the whole step back: nothing of
 * it stays, the registration included (a listener that throws at {@link FencingStep#AFTER_COMMIT}
 * finds the step committed; its exception reaches the caller). A failure before the commit is a
 * {@link StoreException} with {@link StoreException#outcomeUnknown()} false; a failed commit leaves
 * the outcome unknown (look the operation up, or retry it with the same operation ID). {@link
 * #register} reports no steps.
 *
 * <p>The destination reports {@link dev.fenceline.spi.Capability#NATIVE_EPOCH_CHECK}, {@link
 * dev.fenceline.spi.Capability#OPERATION_RECORD} and {@link
 * dev.fenceline.spi.Capability#RESULT_LOOKUP} ({@link #lookup}), and can implement {@link
 * SupportsEpochReset} with {@link #resetRegisteredEpoch}. Thread-safe if the store is.
 *
 * @param <T> the store's transaction
 */
public final class LockingSteps<T> {

  private static final System.Logger LOG = System.getLogger(LockingSteps.class.getName());

  /**
   * The change a write applies, inside the step's transaction.
   *
   * @param <T> the store's transaction
   */
  public interface Change<T> {

    /**
     * The fingerprint of this request ({@link RequestFingerprint}). Called once per write that is
     * not stale: before {@link #apply} is ever called if the operation is recorded already (to
     * compare with the recorded one), otherwise after {@link #apply} returned (to record it), so a
     * change that streams its payload can fingerprint the bytes as it applies them.
     */
    RequestFingerprint fingerprint() throws Exception;

    /**
     * Applies the change in {@code transaction}, at most once per write and only for an operation
     * not recorded yet. Do not commit or roll back: the step does, with the epoch check and the
     * operation record.
     *
     * @return the receipt's attributes ({@link Receipt#attributes()})
     */
    Map<String, String> apply(T transaction) throws Exception;

    /** A change whose request fingerprint is known before it is applied. */
    static <T> Change<T> of(RequestFingerprint fingerprint, Apply<T> apply) {
      requireNonNull(fingerprint, "fingerprint is null");
      requireNonNull(apply, "apply is null");
      return new Change<>() {
        @Override
        public RequestFingerprint fingerprint() {
          return fingerprint;
        }

        @Override
        public Map<String, String> apply(T transaction) throws Exception {
          return apply.apply(transaction);
        }
      };
    }
  }

  /**
   * The work of a {@link Change#of} change.
   *
   * @param <T> the store's transaction
   */
  @FunctionalInterface
  public interface Apply<T> {
    /** Applies the change in {@code transaction}; returns the receipt's attributes. */
    Map<String, String> apply(T transaction) throws Exception;
  }

  private final String name;
  private final LockingStore<T> store;
  private final StepListener steps;
  private final Clock clock;
  private final Optional<TokenKeys> keys;

  /**
   * Steps of the destination named {@code name} on {@code store}.
   *
   * @param name the destination's name ({@link Destination#NAME}); it scopes operation records
   * @param steps told when a write reaches each {@link FencingStep}
   * @param clock stamps receipts ({@link Receipt#recordedAt()}), to the millisecond, which every
   *     store can keep (a store reads back exactly the receipt it recorded)
   * @param keys if present, tokens must be signed with them
   */
  public LockingSteps(
      String name,
      LockingStore<T> store,
      StepListener steps,
      Clock clock,
      Optional<TokenKeys> keys) {
    this.name = Destination.validateName(name);
    this.store = requireNonNull(store, "store is null");
    this.steps = requireNonNull(steps, "steps is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.keys = requireNonNull(keys, "keys is null");
  }

  /** The destination's name. */
  public String name() {
    return name;
  }

  /**
   * {@link Destination#register}: in one transaction, lock the control row, refuse a foreign
   * issuer, reject an older epoch, register a newer one (and bind the issuer if none is bound).
   *
   * @throws UntrustedTokenException if the token is unsigned or forged (with keys), or of another
   *     issuer than the resource is bound to
   * @throws StoreException if the store failed
   */
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    ResourceId resource = token.resource();
    String action = "register epoch " + token.epoch() + " of " + resource + " at " + name;
    trust(token, action);
    return inTransaction(
        action,
        tx -> {
          ControlRow row = store.lockControlRow(tx.handle, resource);
          checkIssuer(row, token, action);
          if (token.epoch().isOlderThan(row.epoch())) {
            return new RejectedStale(resource, token.epoch(), row.epoch());
          }
          registerNewer(tx.handle, row, token);
          tx.commit(action, "register again: registering the same epoch twice changes nothing");
          return new Registered(resource, token.epoch(), row.epoch());
        });
  }

  /**
   * {@link Destination#write}: the fenced step described in the class comment.
   *
   * @return {@link Applied}, {@link AlreadyApplied} (the registered epoch raised if the token's is
   *     newer) or {@link RejectedStale} (nothing changed)
   * @throws UntrustedTokenException if the token is unsigned or forged (with keys), or of another
   *     issuer than the resource is bound to; nothing changed
   * @throws OperationConflictException if the operation was recorded with another request
   *     fingerprint; nothing changed
   * @throws StoreException if the store failed, or the change threw a checked exception (such as an
   *     {@code IOException} reading the payload; it is the cause); nothing changed unless the
   *     commit failed, which leaves the outcome unknown
   * @throws RuntimeException whatever the change or the step listener threw unchecked; nothing
   *     changed if it was thrown before the commit
   */
  public WriteOutcome write(FencingToken token, OperationId operation, Change<T> change) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    String action = "write operation " + operation + " of " + token.resource() + " to " + name;
    trust(token, action);
    steps.reached(FencingStep.BEFORE_LOCK, token, operation);
    WriteOutcome outcome =
        inTransaction(
            action,
            tx -> {
              WriteOutcome decided = decideAndApply(tx.handle, token, operation, change, action);
              if (!(decided instanceof RejectedStale)) {
                tx.commit(action, "look the operation up, or retry it with the same operation ID");
              }
              return decided;
            });
    if (outcome instanceof RejectedStale) {
      return outcome; // rolled back: nothing was committed
    }
    steps.reached(FencingStep.AFTER_COMMIT, token, operation);
    return outcome;
  }

  /** Everything of a write between the lock and the commit; the caller commits unless stale. */
  private WriteOutcome decideAndApply(
      T tx, FencingToken token, OperationId operation, Change<T> change, String action)
      throws Exception {
    ResourceId resource = token.resource();
    ControlRow row = store.lockControlRow(tx, resource);
    checkIssuer(row, token, action);
    if (token.epoch().isOlderThan(row.epoch())) {
      return new RejectedStale(resource, token.epoch(), row.epoch());
    }
    registerNewer(tx, row, token);
    steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
    Optional<RecordedOperation> recorded = store.findOperation(tx, name, resource, operation);
    if (recorded.isPresent()) {
      RequestFingerprint supplied = requireNonNull(change.fingerprint(), "fingerprint is null");
      if (!recorded.get().fingerprint().equals(supplied)) {
        // Thrown before the commit: the epoch registered above is rolled back with the rest.
        throw OperationConflictException.differentRequest(recorded.get().receipt(), supplied);
      }
      return new AlreadyApplied(recorded.get().receipt());
    }
    Map<String, String> attributes =
        requireNonNull(change.apply(tx), "the change returned null attributes");
    Receipt receipt =
        new Receipt(
            name,
            resource,
            operation,
            token.epoch(),
            clock.instant().truncatedTo(ChronoUnit.MILLIS),
            attributes);
    RequestFingerprint fingerprint = requireNonNull(change.fingerprint(), "fingerprint is null");
    store.recordOperation(tx, new RecordedOperation(receipt, fingerprint));
    steps.reached(FencingStep.AFTER_APPLY, token, operation);
    return new Applied(receipt);
  }

  /**
   * {@link Destination#lookup}: the receipt of {@code operation} at this destination, whatever
   * epoch is current, read in a transaction that is rolled back.
   *
   * @return the receipt, or empty if the operation was never applied here
   * @throws StoreException if the store failed
   */
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    String action = "look up operation " + operation + " of " + resource + " at " + name;
    return inTransaction(
        action,
        tx ->
            store
                .findOperation(tx.handle, name, resource, operation)
                .map(RecordedOperation::receipt));
  }

  /**
   * {@link Destination#currentEpoch}: the registered epoch of {@code resource} as last committed,
   * read without waiting for writers; {@link Epoch#NONE} if none.
   *
   * @throws StoreException if the store failed
   */
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    String action = "read the registered epoch of " + resource;
    return inTransaction(
        action,
        tx -> store.readControlRow(tx.handle, resource).map(ControlRow::epoch).orElse(Epoch.NONE));
  }

  /**
   * {@link SupportsEpochReset#resetRegisteredEpoch}: sets the registered epoch of {@code resource}
   * and clears its issuer binding, under the control row's lock; logs a warning.
   *
   * @return the epoch registered before
   * @throws IllegalArgumentException if {@code reason} is not 1 to 200 printable characters
   * @throws StoreException if the store failed
   */
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    String action = "reset the registered epoch of " + resource + " at " + name;
    Epoch previous =
        inTransaction(
            action,
            tx -> {
              Epoch before = store.lockControlRow(tx.handle, resource).epoch();
              store.writeControlRow(tx.handle, resource, new ControlRow(epoch, Optional.empty()));
              tx.commit(action, "read the current epoch, and reset again if it is not " + epoch);
              return before;
            });
    LOG.log(
        System.Logger.Level.WARNING,
        "Reset the registered epoch of "
            + resource
            + " at "
            + store.description()
            + " from "
            + previous
            + " to "
            + epoch
            + " (issuer binding cleared): "
            + reason);
    return previous;
  }

  /** Refuses a token not signed with the configured keys, before anything is read. */
  private void trust(FencingToken token, String action) {
    if (keys.isPresent()) {
      keys.get().verify(token, action);
    }
  }

  private static void checkIssuer(ControlRow row, FencingToken token, String action) {
    if (row.issuer().isPresent() && !row.issuer().get().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, row.issuer().get(), action);
    }
  }

  /** Registers the token's epoch if newer, and binds its issuer if none is bound. */
  private void registerNewer(T tx, ControlRow row, FencingToken token) throws Exception {
    if (token.epoch().isNewerThan(row.epoch()) || row.issuer().isEmpty()) {
      Epoch newest = token.epoch().isNewerThan(row.epoch()) ? token.epoch() : row.epoch();
      store.writeControlRow(
          tx, token.resource(), new ControlRow(newest, Optional.of(token.issuer())));
    }
  }

  /** What runs in one transaction; it commits itself where it should, else it is rolled back. */
  @FunctionalInterface
  private interface Work<T, R> {
    R run(LockingSteps<T>.Transaction tx) throws Exception;
  }

  /**
   * Runs {@code work} in a new transaction, rolled back unless {@code work} committed it; a checked
   * failure before the commit is a {@link StoreException} saying nothing changed.
   */
  private <R> R inTransaction(String action, Work<T, R> work) {
    Transaction tx = begin(action);
    try {
      return work.run(tx);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw failed(action, e);
    } finally {
      tx.rollbackIfOpen();
    }
  }

  private Transaction begin(String action) {
    try {
      return new Transaction(store.begin());
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw failed(action, e);
    }
  }

  /** A checked failure before the commit: rolled back, so nothing changed. */
  private StoreException failed(String action, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new StoreException(
        "Cannot "
            + action
            + " at "
            + store.description()
            + ": "
            + describe(e)
            + " (nothing was changed; retry)",
        e,
        false);
  }

  private static String describe(Exception e) {
    return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
  }

  /** One transaction of the store, ended exactly once. */
  private final class Transaction {
    final T handle;
    private boolean open = true;

    Transaction(T handle) {
      this.handle = requireNonNull(handle, "the store's begin() returned null");
    }

    /** Commits; on failure, rolls back and reports the outcome as unknown. */
    void commit(String action, String hint) {
      try {
        store.commit(handle);
        open = false;
      } catch (StoreException e) {
        throw e;
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new StoreException(
            "Cannot "
                + action
                + " at "
                + store.description()
                + ": the commit failed ("
                + describe(e)
                + "), so it may or may not have been committed ("
                + hint
                + ")",
            e,
            true);
      }
    }

    /** Rolls back if neither committed nor rolled back yet; a failure here is not reported. */
    void rollbackIfOpen() {
      if (!open) {
        return;
      }
      open = false;
      try {
        store.rollback(handle);
      } catch (Exception e) {
        // The transaction was not committed: nothing of it stays, whatever ending it threw.
        LOG.log(
            System.Logger.Level.DEBUG,
            "Rolling back a transaction at " + store.description() + " failed: " + e);
      }
    }
  }
}
