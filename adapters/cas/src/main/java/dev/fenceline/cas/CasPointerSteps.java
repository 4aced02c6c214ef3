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
package dev.fenceline.cas;

import static java.util.Objects.requireNonNull;

import dev.fenceline.cas.ControlDocument.Entry;
import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.UntrustedTokenException;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The steps of a pointer store on a compare-and-swap store, whatever the store: read the resource's
 * {@link ControlDocument} with what identifies its version, decide (issuer, epoch, operation
 * record, replay), and replace it only if it is still that version. A refused replacement means
 * another step committed in between: read again and decide again. The epoch check and the swap are
 * therefore one atomic step of the store (R3), and nobody waits for a paused writer.
 *
 * <p>Lost answers: a client that re-sends a replacement whose answer was lost is refused if the
 * first one landed. Each replacement carries a nonce (in the document's recent writes, and in the
 * entry a swap applies), so the step reads again and answers as the lost answer would have; a read
 * that fails while deciding this leaves the outcome unknown. The recent writes keep only the last
 * {@value ControlDocument#RECENT_WRITES} nonces, so a replacement without an entry (a registration)
 * is decided by {@link #landed}: it did not land if the newest write of the version it replaced is
 * still among the recent writes (a replacement that landed would have come right after it). If that
 * write has left them too, the step cannot tell, and where the answer would be a refusal (stale,
 * another issuer) it fails with an unknown outcome instead; where it would be a registration, that
 * is the truth either way.
 *
 * <p>One request for the current owner: after a replacement the store accepted, the steps keep the
 * document as written with the version the store's answer gave it ({@link Store#replaceKnowing},
 * for the last {@value #KNOWN_DOCUMENTS} resources). The next write of the resource decides its
 * swap on that document and sends the conditional replacement without reading first; the condition
 * keeps it safe (a newer registration, another writer or a reset changed the version, and the store
 * refuses the replacement, after which the step reads and decides again). Answers given without a
 * replacement never come from a kept document.
 *
 * <p>{@link FencingStep}s: {@code BEFORE_LOCK} before the first read, {@code AFTER_EPOCH_CHECK}
 * after each decision, {@code AFTER_APPLY} right before a swap's replacement, {@code AFTER_COMMIT}
 * after it. A listener that throws aborts the step with nothing committed.
 *
 * <p>For adapter implementations: the S3 and ZooKeeper pointer stores supply a {@link Store}.
 *
 * @param <R> what the store's read returns: the document and its version
 */
public final class CasPointerSteps<R extends CasPointerSteps.Read> {

  /** A read of a control document, with whatever identifies its version in the store. */
  public interface Read {
    /** The document as read ({@link ControlDocument#EMPTY} if the resource has none). */
    ControlDocument control();
  }

  /** What the steps need of the store. */
  public interface Store<R extends Read> {

    /** Reads the control document of {@code resource}, linearizably. */
    R read(ResourceId resource, String action);

    /**
     * The immutable record the store keeps of {@code operation}'s entry at this destination (read
     * linearizably after {@link #read}), and where it is.
     */
    Stored operationRecord(ResourceId resource, OperationId operation, String action);

    /** The immutable record the store keeps of pointer version {@code version}, and where it is. */
    Stored versionRecord(ResourceId resource, long version, String action);

    /**
     * Whether an answer may be given from {@code read} without a replacement (a replay, an epoch
     * already registered, a refusal). A store whose reads can be behind (a new session that reached
     * a server that is behind) says no, and the step reads again. Default yes.
     */
    default boolean fresh(R read, String action) {
      return true;
    }

    /**
     * Called when a replacement of {@code refused} was refused and {@code now} was read next (and
     * the refused attempt did not land): throws if nothing that the replacement checks changed, so
     * that trying again would be refused for ever. Default nothing.
     */
    default void requireProgress(R refused, R now, String action) {}

    /**
     * Called before a swap replaces {@code current} as this destination's current entry: a store
     * that keeps older entries outside the document stores them now. Default nothing.
     *
     * @return false to read again (a concurrent step is storing them)
     */
    default boolean beforeReplacing(ResourceId resource, Entry current) {
      return true;
    }

    /**
     * Replaces the document read by {@code read} with {@code next}, only if it is still that
     * version; for a swap, {@code applied} is the entry that becomes current (the store creates its
     * immutable records in the same atomic step if it can).
     *
     * @param applied the swap's entry, or empty for a registration
     * @return true if replaced; false if refused because the document changed (or an attempt of it
     *     re-sent after a lost answer landed first)
     * @throws StoreException if the store failed; outcome unknown if it may have landed
     */
    boolean replace(R read, ControlDocument next, Optional<Entry> applied, String action);

    /**
     * {@link #replace}, and on acceptance the read a later step of this process may decide a swap
     * on without reading first: {@code next} with the version the store's answer gave it. That read
     * must not count as {@linkplain #fresh fresh} (no answer is ever given from it without a
     * replacement; see {@link CasPointerSteps}). The default calls {@link #replace} and knows no
     * version, so every step reads first.
     */
    default Replacement<R> replaceKnowing(
        R read, ControlDocument next, Optional<Entry> applied, String action) {
      return replace(read, next, applied, action)
          ? new Replacement<>(true, Optional.empty())
          : Replacement.refused();
    }

    /**
     * True if a swap's replacement is refused when the operation's immutable record exists already
     * (the store creates it, create-only, in the same atomic step as the replacement): then a swap
     * decided without a read ({@link Store#replaceKnowing}) need not look the record up first, a
     * retry of an older operation is refused and decided on a read. Default false: the record is
     * looked up before the swap.
     */
    default boolean swapRefusesRecordedOperation() {
      return false;
    }

    /**
     * The failure of a read that decides whether a refused replacement landed: its outcome is then
     * unknown. Default {@link CasPointerSteps#undecided}.
     */
    default StoreException undecided(StoreException failure) {
      return CasPointerSteps.undecided(failure);
    }
  }

  /**
   * An immutable record as read.
   *
   * @param where what and where it is, for messages
   * @param data its bytes ({@link Entry#toStoredJson}), or empty if it does not exist
   */
  public record Stored(StrictJson.Where where, Optional<byte[]> data) {}

  /**
   * How {@link Store#replaceKnowing} ended.
   *
   * @param accepted whether the store replaced the document
   * @param written if accepted: the document as written with its new version, when the store's
   *     answer said it; empty otherwise
   * @param <R> what the store's read returns
   */
  public record Replacement<R>(boolean accepted, Optional<R> written) {

    /** Checks that a refused replacement carries no written document. */
    public Replacement {
      requireNonNull(written, "written is null");
      if (!accepted && written.isPresent()) {
        throw new IllegalArgumentException("a refused replacement wrote nothing");
      }
    }

    /** A replacement the store refused. */
    public static <R> Replacement<R> refused() {
      return new Replacement<>(false, Optional.empty());
    }

    /** An accepted replacement; {@code written} as the store's answer gave it, or null. */
    public static <R> Replacement<R> accepted(R written) {
      return new Replacement<>(true, Optional.ofNullable(written));
    }
  }

  /**
   * How many resources' last written control documents the steps keep for the next swap ({@link
   * Store#replaceKnowing}); the least recently used is forgotten first.
   */
  public static final int KNOWN_DOCUMENTS = 1024;

  private final String name;
  private final Store<R> store;
  private final StepListener steps;
  private final Clock clock;

  /** Per resource, the control document this process wrote last, with its version. */
  private final Map<ResourceId, R> known =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ResourceId, R> eldest) {
              return size() > KNOWN_DOCUMENTS;
            }
          });

  /**
   * Steps of destination {@code name} on {@code store}.
   *
   * @param clock stamps the receipts ({@link Receipt#recordedAt()})
   */
  public CasPointerSteps(String name, Store<R> store, StepListener steps, Clock clock) {
    this.name = Destination.validateName(name);
    this.store = requireNonNull(store, "store is null");
    this.steps = requireNonNull(steps, "steps is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** A refused replacement that may still have landed. */
  private record Attempt<T>(String nonce, T outcome, boolean applies) {}

  /** {@link Destination#register}, with {@code action} for messages. */
  public RegisterOutcome register(FencingToken token, String action) {
    ResourceId resource = token.resource();
    Attempt<RegisterOutcome> attempt = null;
    R refused = null;
    while (true) {
      R read = deciding(attempt, () -> store.read(resource, action));
      ControlDocument control = read.control();
      Landed landed =
          attempt == null ? Landed.NO : landed(attempt.nonce(), refused.control(), control);
      if (landed == Landed.YES) {
        return attempt.outcome();
      }
      if (mustReadAgain(refused, read, control, landed, token, action)) {
        continue;
      }
      checkIssuer(control, token, action);
      if (token.epoch().isOlderThan(control.epoch())) {
        return new RejectedStale(resource, token.epoch(), control.epoch());
      }
      Registered registered = new Registered(resource, token.epoch(), control.epoch());
      if (token.epoch().equals(control.epoch()) && control.issuer() != null) {
        if (!store.fresh(read, action)) {
          continue;
        }
        return registered;
      }
      String nonce = nonce();
      if (replace(
          resource,
          read,
          control.registered(token.epoch(), token.issuer(), nonce),
          Optional.empty(),
          action)) {
        return registered;
      }
      attempt = new Attempt<>(nonce, registered, false);
      refused = read;
    }
  }

  /** {@link dev.fenceline.spi.PointerStore#write}, with {@code action} for messages. */
  public WriteOutcome write(
      FencingToken token,
      OperationId operation,
      Pointer change,
      RequestFingerprint fingerprint,
      String action) {
    return new Write(token, operation, change, fingerprint, action).run();
  }

  /**
   * One {@link #write}: its request, and the replacement it tried last if the store refused it.
   * Each pass over a read either answers or reads again.
   */
  private final class Write {
    private final FencingToken token;
    private final OperationId operation;
    private final Pointer change;
    private final RequestFingerprint fingerprint;
    private final String action;
    private final ResourceId resource;

    /** A refused replacement that may still have landed, until a read decides that. */
    private Attempt<WriteOutcome> attempt;

    /** The read the last refused replacement was to replace. */
    private R refused;

    Write(
        FencingToken token,
        OperationId operation,
        Pointer change,
        RequestFingerprint fingerprint,
        String action) {
      this.token = token;
      this.operation = operation;
      this.change = change;
      this.fingerprint = fingerprint;
      this.action = action;
      this.resource = token.resource();
    }

    WriteOutcome run() {
      steps.reached(FencingStep.BEFORE_LOCK, token, operation);
      R last = known.get(resource);
      if (last != null) {
        WriteOutcome outcome = swapOnKnown(last);
        if (outcome != null) {
          return outcome;
        }
      }
      while (true) {
        R read = deciding(attempt, () -> store.read(resource, action));
        WriteOutcome outcome = decide(read);
        if (outcome != null) {
          return outcome;
        }
      }
    }

    /**
     * The common case in one conditional replacement: a swap decided on the control document this
     * process wrote last ({@link Store#replaceKnowing}), without reading it first. Only a swap is
     * decided so: every answer given without a replacement (stale, another issuer, a replay) comes
     * from a read. The replacement's condition is the version this process wrote: if anything
     * changed the document since (a newer registration, another writer, a reset), the store refuses
     * it, and the step reads and decides again as after any refused replacement. An operation
     * recorded before is found in the document if it is the current one; an older one is looked up
     * first unless the replacement itself is refused when its record exists ({@link
     * Store#swapRefusesRecordedOperation}).
     *
     * @return the answer, or null to read
     */
    private WriteOutcome swapOnKnown(R last) {
      ControlDocument control = last.control();
      if (refuses(control, token)) {
        return null;
      }
      Entry current = control.entry(name);
      if (current != null && current.operation().equals(operation)) {
        return null;
      }
      if (!store.swapRefusesRecordedOperation()
          && recorded(resource, control, operation, action).isPresent()) {
        return null;
      }
      Epoch newest = token.epoch().isNewerThan(control.epoch()) ? token.epoch() : control.epoch();
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      return swap(last, control, newest, nonce());
    }

    /**
     * Decides on one read: whether the refused attempt landed, then the refusals, then a replay of
     * the recorded operation or a swap.
     *
     * @return the answer, or null to read again
     */
    private WriteOutcome decide(R read) {
      ControlDocument control = read.control();
      Optional<Entry> recorded = null;
      Landed landed = Landed.NO;
      if (attempt != null) {
        // Did the refused replacement land after all (its first answer lost, the re-sent one
        // refused)? Then it committed before anything that followed it.
        String tried = attempt.nonce();
        landed = landed(tried, refused.control(), control);
        if (landed != Landed.YES && attempt.applies()) {
          // A swap's entry carries its nonce, in the document or the operation's record.
          recorded = deciding(attempt, () -> recorded(resource, control, operation, action));
          landed =
              recorded.map(entry -> entry.attempt().equals(tried)).orElse(false)
                  ? Landed.YES
                  : Landed.NO;
        }
        if (landed == Landed.YES) {
          steps.reached(FencingStep.AFTER_COMMIT, token, operation);
          return attempt.outcome();
        }
        if (landed == Landed.NO) {
          attempt = null;
        }
      }
      if (mustReadAgain(refused, read, control, landed, token, action)) {
        return null;
      }
      checkIssuer(control, token, action);
      if (token.epoch().isOlderThan(control.epoch())) {
        return new RejectedStale(resource, token.epoch(), control.epoch());
      }
      Epoch newest = token.epoch().isNewerThan(control.epoch()) ? token.epoch() : control.epoch();
      steps.reached(FencingStep.AFTER_EPOCH_CHECK, token, operation);
      if (recorded == null) {
        recorded = recorded(resource, control, operation, action);
      }
      String nonce = nonce();
      if (recorded.isPresent()) {
        return replay(read, control, recorded.get(), newest, nonce);
      }
      return swap(read, control, newest, nonce);
    }

    /**
     * A retry of the recorded operation: its first receipt if the request is the same, after
     * registering the token's epoch if it is newer. The record may have been read after the control
     * document (a store that keeps records apart from it): a record written under a newer epoch
     * than the token's means that epoch was registered before the record was read, so the token is
     * stale then ({@link RejectedStale}), never answered with a newer owner's receipt.
     *
     * @return the answer, or null to read again
     * @throws OperationConflictException if the operation was recorded with another request
     */
    private WriteOutcome replay(
        R read, ControlDocument control, Entry recorded, Epoch newest, String nonce) {
      Receipt receipt = recorded.receipt(name, resource);
      if (token.epoch().isOlderThan(receipt.epoch())) {
        return new RejectedStale(resource, token.epoch(), receipt.epoch());
      }
      if (!recorded.fingerprint().equals(fingerprint)) {
        throw OperationConflictException.differentRequest(receipt, fingerprint);
      }
      AlreadyApplied replay = new AlreadyApplied(receipt);
      if (newest.equals(control.epoch()) && control.issuer() != null) {
        if (!store.fresh(read, action)) {
          return null;
        }
        steps.reached(FencingStep.AFTER_COMMIT, token, operation);
        return replay;
      }
      if (replace(
          resource,
          read,
          control.registered(newest, token.issuer(), nonce),
          Optional.empty(),
          action)) {
        steps.reached(FencingStep.AFTER_COMMIT, token, operation);
        return replay;
      }
      attempt = new Attempt<>(nonce, replay, false);
      refused = read;
      return null;
    }

    /**
     * The swap: the operation's entry becomes this destination's current one, in one replacement.
     *
     * @return the answer, or null to read again
     */
    private WriteOutcome swap(R read, ControlDocument control, Epoch newest, String nonce) {
      Entry current = control.entry(name);
      if (current != null && !store.beforeReplacing(resource, current)) {
        return null;
      }
      Entry entry =
          new Entry(
              current == null ? 1 : current.version() + 1,
              change,
              token.epoch(),
              operation,
              fingerprint,
              clock.instant(),
              nonce);
      Applied applied = new Applied(entry.receipt(name, resource));
      ControlDocument next = control.applied(name, entry, newest, token.issuer(), nonce);
      // Nothing of this operation is visible before the replacement: a listener that throws here
      // leaves nothing of it.
      steps.reached(FencingStep.AFTER_APPLY, token, operation);
      if (replace(resource, read, next, Optional.of(entry), action)) {
        steps.reached(FencingStep.AFTER_COMMIT, token, operation);
        return applied;
      }
      attempt = new Attempt<>(nonce, applied, true);
      refused = read;
      return null;
    }
  }

  /**
   * {@link Store#replaceKnowing}, keeping what it wrote for the next swap of {@code resource}; a
   * refusal or a failure forgets what was kept.
   */
  private boolean replace(
      ResourceId resource, R read, ControlDocument next, Optional<Entry> applied, String action) {
    known.remove(resource);
    Replacement<R> replacement = store.replaceKnowing(read, next, applied, action);
    if (replacement.accepted()) {
      replacement.written().ifPresent(written -> known.put(resource, written));
    }
    return replacement.accepted();
  }

  /**
   * The entry of {@code operation} at this destination: the current one of {@code control}, or the
   * store's record of an older one.
   */
  public Optional<Entry> recorded(
      ResourceId resource, ControlDocument control, OperationId operation, String action) {
    Entry current = control.entry(name);
    if (current == null) {
      return Optional.empty(); // this destination never applied anything to the resource
    }
    if (current.operation().equals(operation)) {
      return Optional.of(current);
    }
    if (current.version() == 1) {
      return Optional.empty(); // the only applied operation is the current one
    }
    return storedOperation(resource, operation, action);
  }

  /** The store's record of {@code operation}'s entry, checked to be that operation's. */
  public Optional<Entry> storedOperation(
      ResourceId resource, OperationId operation, String action) {
    Stored stored = store.operationRecord(resource, operation, action);
    return stored
        .data()
        .map(data -> Entry.parseStored(data, stored.where(), name, resource))
        .map(
            entry -> {
              if (!entry.operation().equals(operation)) {
                throw StrictJson.unreadable(
                    stored.where(),
                    "it holds operation " + entry.operation() + ", expected " + operation,
                    null);
              }
              return entry;
            });
  }

  /**
   * The newest pointer states of {@code resource} as {@link dev.fenceline.spi.PointerStore#history}
   * returns them: the current entry of {@code control}, then the store's version records.
   */
  public List<PointerState> history(
      ResourceId resource, ControlDocument control, int limit, String action) {
    Entry current = control.entry(name);
    if (current == null) {
      return List.of();
    }
    List<PointerState> newestFirst = new ArrayList<>();
    newestFirst.add(current.state(resource));
    for (long version = current.version() - 1;
        version >= 1 && newestFirst.size() < limit;
        version--) {
      Stored stored = store.versionRecord(resource, version, action);
      byte[] data =
          stored
              .data()
              .orElseThrow(
                  () ->
                      StrictJson.unreadable(
                          stored.where(),
                          "it is missing although "
                              + resource
                              + " is at version "
                              + current.version()
                              + " (it was deleted)",
                          null));
      newestFirst.add(Entry.parseStored(data, stored.where(), name, resource).state(resource));
    }
    return List.copyOf(newestFirst);
  }

  /**
   * Checks {@link dev.fenceline.spi.PointerStore#history}'s limit.
   *
   * @throws IllegalArgumentException if it is below 1
   */
  public static void requireLimit(ResourceId resource, int limit) {
    requireNonNull(resource, "resource is null");
    if (limit < 1) {
      throw new IllegalArgumentException(
          "Cannot read the pointer history of " + resource + ": limit " + limit + " is below 1");
    }
  }

  /**
   * {@code failure} with its outcome unknown: it happened while deciding whether an earlier attempt
   * whose answer was lost had landed.
   */
  public static StoreException undecided(StoreException failure) {
    if (failure.outcomeUnknown()) {
      return failure;
    }
    return new StoreException(
        failure.getMessage()
            + " (an attempt of this step whose answer was lost may have been applied: look the"
            + " operation up or retry it)",
        failure,
        true);
  }

  /** Whether a refused replacement landed, as far as the recent writes tell. */
  public enum Landed {
    /** Its nonce is among the recent writes. */
    YES,
    /** It did not: the writes since the version it replaced are all still recent. */
    NO,
    /** Its nonce is not among the recent writes, and it may have left them. */
    UNKNOWN
  }

  /**
   * Whether the replacement that wrote {@code nonce} over version {@code before} landed, decided
   * from {@code now}, a later read, alone. A replacement is conditional on the version it replaces,
   * so if it landed it was the next write after {@code before}'s newest one: while that write is
   * among {@code now}'s recent writes, so would the replacement's be. A document that had no writes
   * (none existed) is followed by every write it ever had, all visible while fewer than {@value
   * ControlDocument#RECENT_WRITES}. Documents are never deleted (that would reset the fence), so
   * their writes form one line.
   */
  public static Landed landed(String nonce, ControlDocument before, ControlDocument now) {
    requireNonNull(nonce, "nonce is null");
    if (now.writes().contains(nonce)) {
      return Landed.YES;
    }
    boolean allSinceVisible =
        before.writes().isEmpty()
            ? now.writes().size() < ControlDocument.RECENT_WRITES
            : now.writes().contains(before.writes().get(0));
    return allSinceVisible ? Landed.NO : Landed.UNKNOWN;
  }

  /**
   * An attempt whose answer was lost may have landed, and so many writes followed that its nonce
   * has left the recent writes: refusing now could report "nothing changed" for a change that
   * landed.
   */
  private static StoreException lostAmongWrites(String action, ControlDocument now) {
    return new StoreException(
        "Cannot "
            + action
            + ": an attempt whose answer was lost may have been applied, and "
            + ControlDocument.RECENT_WRITES
            + " or more writes followed it before it could be decided (registered epoch now "
            + now.epoch()
            + "; read the current epoch, or look the operation up, before acting on it)",
        null,
        true);
  }

  /**
   * Whether a step must read again before it may answer from {@code read}; checked first on every
   * read, in this order: after a refused replacement the store must show progress ({@link
   * Store#requireProgress}); a refusal (stale, another issuer) is an answer without a write, so
   * only a fresh read may give it (true: read again); and no refusal is given while an attempt
   * whose answer was lost may have landed unseen.
   *
   * @param landed whether the refused attempt landed ({@link Landed#NO} if there was none)
   * @throws StoreException with an unknown outcome in that last case
   */
  private boolean mustReadAgain(
      R refused,
      R read,
      ControlDocument control,
      Landed landed,
      FencingToken token,
      String action) {
    if (refused != null) {
      store.requireProgress(refused, read, action);
    }
    if (refuses(control, token) && !store.fresh(read, action)) {
      return true; // a refusal is an answer without a write: only from fresh reads
    }
    if (landed == Landed.UNKNOWN && refuses(control, token)) {
      throw lostAmongWrites(action, control);
    }
    return false;
  }

  /** A read that may decide whether {@code attempt} landed: its failure leaves that unknown. */
  private <T> T deciding(Attempt<?> attempt, Supplier<T> read) {
    if (attempt == null) {
      return read.get();
    }
    try {
      return read.get();
    } catch (StoreException e) {
      throw store.undecided(e);
    }
  }

  /**
   * True if {@code control} makes the step refuse {@code token} (stale, or another issuer's). A
   * reset can move the epoch back and forget the issuer, so a read that is behind can show a
   * refusal the store no longer makes.
   */
  private static boolean refuses(ControlDocument control, FencingToken token) {
    return token.epoch().isOlderThan(control.epoch())
        || (control.issuer() != null && !control.issuer().equals(token.issuer()));
  }

  /** Refuses a token of another issuer than the one the resource was first registered with. */
  private static void checkIssuer(ControlDocument control, FencingToken token, String action) {
    if (control.issuer() != null && !control.issuer().equals(token.issuer())) {
      throw UntrustedTokenException.foreignIssuer(token, control.issuer(), action);
    }
  }

  /** A fresh nonce for one replacement. */
  public static String nonce() {
    return UUID.randomUUID().toString();
  }
}
