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
package dev.fenceline.chaos.check;

import dev.fenceline.chaos.check.FenceModel.Call;
import dev.fenceline.chaos.check.FenceModel.State;
import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.ReceiptView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The linearizability search for one resource's history: Wing and Gong's algorithm with Lowe's
 * memoization, as Porcupine implements it. The calls and returns form a doubly linked list sorted
 * by time; the search lifts a call (and its return) out of the list when the model accepts it,
 * remembers every (set of linearized calls, model state) it reached so it never explores one twice,
 * and backtracks through a stack when it meets a return whose call cannot be linearized.
 *
 * <p>A call whose outcome is unknown has no return (+infinity); it may take its effect at any point
 * after its invocation or never. "Never" needs no search: such a call is simply left out, and it is
 * dropped from the list as soon as the registered epoch passes its epoch (it can no longer take
 * effect), which keeps both the list and the state small.
 *
 * <p>The final lookup binds the search: every operation it answered must end in the state it
 * answered (found with a receipt: applied with that receipt; never applied: not applied). An
 * operation is checked when its last call is linearized or dropped (nothing can change it after
 * that, and it leaves the state), and the operations still live, or never called at all (their
 * writes failed), are checked at the final call. So an unknown write whose operation the lookup
 * found must take effect, at a point that explains the reads and the final value.
 */
final class Linearizability {

  private static final int NIL = -1;

  /** The final lookup gave no answer for the operation (or there is no final line). */
  private static final int NO_ANSWER = -3;

  /** The final lookup reports the operation never applied. */
  private static final int NEVER_APPLIED = -2;

  /**
   * What the search found.
   *
   * @param status PASS, FAIL (no linearization) or UNKNOWN (the deadline passed)
   * @param detail one line
   * @param culprit the operation the search could not place (FAIL), else null
   * @param linearized the most operations the search placed
   * @param total the operations to place
   */
  record Result(Check.Status status, String detail, Op culprit, int linearized, int total) {}

  private final String resource;
  private final LongFunction<String> time;
  private final int n; // calls, including the final one
  private final Call[] calls;
  private final Op[] ops; // null for the final call
  private final boolean[] unknown;
  private final int[] remaining; // per operation ID: calls not yet linearized or dropped
  private final int[] unknownByEpoch; // the unknown calls sorted by epoch
  private final int[] next;
  private final int[] prev;
  private final int head;
  private final long[] words;
  private int full; // words[0..full) are all ones
  private int top; // no bit set above word top
  private final int definite;
  private final String finalValueText;
  private final String[] operationNames; // by interned operation ID
  private final int[] lookupAnswer; // per operation: NO_ANSWER, NEVER_APPLIED or a receipt
  private final int[] callsOf; // per operation: its calls in the search
  private final int[] answered; // the operations the final lookup answered
  private final ReceiptView[] receiptViews; // by interned receipt

  private Linearizability(
      String resource, List<Op> input, Event fin, boolean checkFinalValue, LongFunction<String> t) {
    this.resource = resource;
    this.time = t;
    Map<String, ReceiptView> lookups = fin == null ? null : fin.lookups();
    List<Op> kept = new ArrayList<>();
    List<Call> kept2 = new ArrayList<>();
    Map<String, Integer> operationIds = new HashMap<>();
    Map<String, Integer> values = new HashMap<>();
    Map<ReceiptView, Integer> receipts = new HashMap<>();
    for (Op op : input) {
      Call c = toCall(op, lookups, operationIds, values, receipts);
      if (c != null) {
        kept.add(op);
        kept2.add(c);
      }
    }
    // the operations the final lookup answered, also those no call of the search names
    if (lookups != null) {
      lookups.forEach(
          (operation, found) -> {
            operationIds.computeIfAbsent(operation, k -> operationIds.size());
            if (found != null) {
              receipts.computeIfAbsent(found, k -> receipts.size());
            }
          });
    }
    operationNames = new String[operationIds.size()];
    operationIds.forEach((name, id) -> operationNames[id] = name);
    receiptViews = new ReceiptView[receipts.size()];
    receipts.forEach((view, id) -> receiptViews[id] = view);
    lookupAnswer = new int[operationIds.size()];
    Arrays.fill(lookupAnswer, NO_ANSWER);
    List<Integer> answeredList = new ArrayList<>();
    if (lookups != null) {
      lookups.forEach(
          (operation, found) -> {
            int o = operationIds.get(operation);
            lookupAnswer[o] = found == null ? NEVER_APPLIED : receipts.get(found);
            answeredList.add(o);
          });
    }
    answered = answeredList.stream().mapToInt(Integer::intValue).sorted().toArray();
    long last = 0;
    for (Op op : kept) {
      last = Math.max(last, op.call);
      if (op.ret != Long.MAX_VALUE) {
        last = Math.max(last, op.ret);
      }
    }
    boolean hasFinal = fin != null;
    finalValueText = hasFinal ? fin.value() : null;
    n = kept.size() + (hasFinal ? 1 : 0);
    calls = new Call[n];
    ops = new Op[n];
    unknown = new boolean[n];
    long[] callTime = new long[n];
    long[] returnTime = new long[n];
    for (int i = 0; i < kept.size(); i++) {
      ops[i] = kept.get(i);
      calls[i] = kept2.get(i);
      unknown[i] = calls[i].outcome() == FenceModel.UNKNOWN;
      callTime[i] = ops[i].call;
      returnTime[i] = ops[i].ret;
    }
    if (hasFinal) {
      int i = n - 1;
      String v = checkFinalValue ? fin.value() : null;
      calls[i] =
          new Call(
              FenceModel.FINAL,
              FenceModel.FOUND,
              fin.epoch() == null ? -1 : fin.epoch(),
              -1,
              v == null ? FenceModel.NONE : values.getOrDefault(v, -2),
              FenceModel.ANY_RECEIPT,
              checkFinalValue);
      callTime[i] = Math.max(last, fin.t()) + 1;
      returnTime[i] = callTime[i] + 1;
    }
    remaining = new int[operationIds.size()];
    int d = 0;
    List<Integer> unknowns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (calls[i].operation() >= 0) {
        remaining[calls[i].operation()]++;
      }
      if (unknown[i]) {
        unknowns.add(i);
      } else {
        d++;
      }
    }
    definite = d;
    callsOf = remaining.clone();
    unknownByEpoch =
        unknowns.stream()
            .sorted(Comparator.comparingLong((Integer i) -> calls[i].epoch()))
            .mapToInt(Integer::intValue)
            .toArray();

    // the entries: node 2i is call i, node 2i+1 its return (absent for unknown outcomes)
    List<long[]> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(new long[] {callTime[i], 0, i});
      if (!unknown[i]) {
        entries.add(new long[] {returnTime[i], 1, i});
      }
    }
    // calls before returns at equal times: such operations overlap
    entries.sort(
        Comparator.<long[]>comparingLong(e -> e[0])
            .thenComparingLong(e -> e[1])
            .thenComparingLong(e -> e[2]));
    head = 2 * n;
    next = new int[2 * n + 1];
    prev = new int[2 * n + 1];
    Arrays.fill(next, NIL);
    Arrays.fill(prev, NIL);
    int p = head;
    for (long[] e : entries) {
      int node = (int) (2 * e[2] + e[1]);
      next[p] = node;
      prev[node] = p;
      p = node;
    }
    next[p] = NIL;
    words = new long[(n + 64) / 64];
  }

  private static Call toCall(
      Op op,
      Map<String, ReceiptView> lookups,
      Map<String, Integer> operationIds,
      Map<String, Integer> values,
      Map<ReceiptView, Integer> receipts) {
    if (op.failed()) {
      return null;
    }
    String outcome = op.unknown() ? Event.UNKNOWN : op.completion.outcome();
    long epoch = op.epochOrZero();
    if (op.is(Event.REGISTER)) {
      int code =
          Event.REGISTERED.equals(outcome)
              ? FenceModel.REGISTERED
              : Event.REJECTED_STALE.equals(outcome)
                  ? FenceModel.REJECTED_STALE
                  : FenceModel.UNKNOWN;
      return new Call(FenceModel.REGISTER, code, epoch, -1, FenceModel.NONE, -1, false);
    }
    if (op.is(Event.READ)) {
      if (op.unknown() || !op.ok()) {
        return null; // observes nothing we know of, changes nothing
      }
      if (Event.FOUND.equals(outcome)) {
        int v = op.value == null ? -2 : values.computeIfAbsent(op.value, k -> values.size());
        return new Call(FenceModel.READ, FenceModel.FOUND, epoch, -1, v, -1, false);
      }
      if (Event.NOT_FOUND.equals(outcome)) {
        return new Call(
            FenceModel.READ, FenceModel.NOT_FOUND, epoch, -1, FenceModel.NONE, -1, false);
      }
      return null;
    }
    if (!op.is(Event.WRITE) || op.operation == null) {
      return null;
    }
    int code =
        switch (outcome == null ? "" : outcome) {
          case Event.APPLIED -> FenceModel.APPLIED;
          case Event.ALREADY_APPLIED -> FenceModel.ALREADY_APPLIED;
          case Event.REJECTED_STALE -> FenceModel.REJECTED_STALE;
          default -> FenceModel.UNKNOWN;
        };
    int receipt = FenceModel.ANY_RECEIPT;
    boolean mayApply = false;
    if (code == FenceModel.UNKNOWN) {
      boolean answered = lookups != null && lookups.containsKey(op.operation);
      ReceiptView found = answered ? lookups.get(op.operation) : null;
      if (answered && found == null) {
        return null; // never applied: this call took no effect
      }
      if (found != null) {
        mayApply = found.epoch() == epoch;
        receipt = receipts.computeIfAbsent(found, k -> receipts.size());
      } else {
        mayApply = true;
      }
    } else if (op.receipt() != null) {
      receipt = receipts.computeIfAbsent(op.receipt(), k -> receipts.size());
    }
    int o = operationIds.computeIfAbsent(op.operation, k -> operationIds.size());
    int v =
        op.value == null
            ? FenceModel.NONE - 1
            : values.computeIfAbsent(op.value, k -> values.size());
    return new Call(FenceModel.WRITE, code, epoch, o, v, receipt, mayApply);
  }

  /**
   * Checks one resource.
   *
   * @param resource the resource, for messages
   * @param ops its operations (any functions; the search keeps register, write and read)
   * @param fin its FINAL line, or null
   * @param checkFinalValue whether the final line's value is the published value
   * @param deadline {@link System#nanoTime()} after which the search gives up
   * @param time formats a history time for messages
   */
  static Result check(
      String resource,
      List<Op> ops,
      Event fin,
      boolean checkFinalValue,
      long deadline,
      LongFunction<String> time) {
    return new Linearizability(resource, ops, fin, checkFinalValue, time).search(deadline);
  }

  private void lift(int node) {
    next[prev[node]] = next[node];
    if (next[node] != NIL) {
      prev[next[node]] = prev[node];
    }
  }

  private void unlift(int node) {
    next[prev[node]] = node;
    if (next[node] != NIL) {
      prev[next[node]] = node;
    }
  }

  private boolean isSet(int i) {
    return (words[i >>> 6] & (1L << i)) != 0;
  }

  private void set(int i) {
    int w = i >>> 6;
    words[w] |= 1L << i;
    top = Math.max(top, w);
    while (full < words.length && words[full] == -1L) {
      full++;
    }
  }

  private void clear(int i) {
    int w = i >>> 6;
    words[w] &= ~(1L << i);
    if (w < full) {
      full = w;
    }
  }

  /** The memo key: the linearized set (as its all-ones prefix length and the rest) and a state. */
  private record Key(int full, long[] rest, State state, int hash) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && k.hash == hash
          && k.full == full
          && Arrays.equals(k.rest, rest)
          && k.state.equals(state);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private Key key(State s) {
    while (top > full && words[top] == 0) {
      top--;
    }
    long[] rest = top >= full ? Arrays.copyOfRange(words, full, top + 1) : new long[0];
    int h = (full * 31 + Arrays.hashCode(rest)) * 31 + s.hashCode();
    return new Key(full, rest, s, h);
  }

  // scratch for operations whose last call was just linearized or dropped
  private int[] pruned = new int[16];
  private int prunedCount;

  private void consume(int i) {
    set(i);
    int o = calls[i].operation();
    if (o >= 0 && --remaining[o] == 0) {
      if (prunedCount == pruned.length) {
        pruned = Arrays.copyOf(pruned, prunedCount * 2);
      }
      pruned[prunedCount++] = o;
    }
  }

  private void restore(int i) {
    clear(i);
    int o = calls[i].operation();
    if (o >= 0) {
      remaining[o]++;
    }
  }

  /** Drops the unknown calls with an epoch in [from, to): they can no longer take effect. */
  private int[] drop(long from, long to) {
    int lo = 0;
    int hi = unknownByEpoch.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (calls[unknownByEpoch[mid]].epoch() < from) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    int[] dropped = null;
    int count = 0;
    for (int k = lo; k < unknownByEpoch.length; k++) {
      int u = unknownByEpoch[k];
      if (calls[u].epoch() >= to) {
        break;
      }
      if (isSet(u)) {
        continue;
      }
      lift(2 * u);
      consume(u);
      if (dropped == null) {
        dropped = new int[4];
      } else if (count == dropped.length) {
        dropped = Arrays.copyOf(dropped, count * 2);
      }
      dropped[count++] = u;
    }
    return dropped == null ? null : Arrays.copyOf(dropped, count);
  }

  private void undo(int x, int[] dropped) {
    if (dropped != null) {
      for (int k = dropped.length - 1; k >= 0; k--) {
        unlift(2 * dropped[k]);
        restore(dropped[k]);
      }
    }
    if (!unknown[x]) {
      unlift(2 * x + 1);
    }
    unlift(2 * x);
    restore(x);
  }

  /** Whether operation {@code o} is in {@code s} as the final lookup answered (if it did). */
  private boolean settled(State s, int o) {
    int answer = lookupAnswer[o];
    if (answer == NO_ANSWER) {
      return true;
    }
    if (answer == NEVER_APPLIED) {
      return !s.isApplied(o);
    }
    return s.isApplied(o) && (s.receipt(o) == FenceModel.ANY_RECEIPT || s.receipt(o) == answer);
  }

  /**
   * The first operation answered by the final lookup whose state {@code s} still holds (a call of
   * it is still live) or that no call names, and that is not as answered; -1 if there is none.
   */
  private int unsettledAtEnd(State s) {
    for (int o : answered) {
      if ((remaining[o] > 0 || callsOf[o] == 0) && !settled(s, o)) {
        return o;
      }
    }
    return -1;
  }

  /** Why the final call cannot follow {@code s}, for the failure's message. */
  private String finalProblem(State s, Call fin) {
    if (fin.mayApply() && fin.value() != s.value) {
      return "the final value is " + finalValue() + ", not the published " + valueName(s.value);
    }
    if (fin.epoch() >= 0 && fin.epoch() < s.epoch) {
      return "the final epoch is below the registered " + s.epoch;
    }
    int o = unsettledAtEnd(s);
    if (o < 0) {
      return "no order ends in this state";
    }
    String name = operationNames[o];
    int answer = lookupAnswer[o];
    if (answer == NEVER_APPLIED) {
      return "the final lookup reports operation " + name + " never applied, but it is applied";
    }
    String found = Checker.describeReceipt(receiptViews[answer]);
    if (callsOf[o] == 0) {
      return "the final lookup finds operation "
          + name
          + " applied ("
          + found
          + "), but no write of it was Applied or had an unknown outcome";
    }
    return "the final lookup finds operation "
        + name
        + " applied ("
        + found
        + "), but no order that explains the rest applies it with that receipt";
  }

  private Result search(long deadline) {
    long start = System.nanoTime();
    HashSet<Key> cache = new HashSet<>();
    int[] stackCall = new int[64];
    State[] stackState = new State[64];
    int[][] stackDropped = new int[64][];
    int sp = 0;
    State state = State.INITIAL;
    int left = definite;
    int best = -1;
    int stuck = -1;
    State stuckState = null;
    String stuckReason = null;
    long iterations = 0;
    int entry = next[head];
    while (left > 0) {
      if ((++iterations & 1023) == 0 && System.nanoTime() - deadline > 0) {
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(
            Check.Status.UNKNOWN,
            String.format(
                "gave up after %.3f s at op %d of %d of %s (the time budget ran out before the"
                    + " search decided; raise it to decide)",
                seconds, Math.max(best, definite - left), definite, resource),
            null,
            Math.max(best, definite - left),
            definite);
      }
      if (entry == NIL || (entry & 1) == 1) {
        int done = definite - left;
        if (entry != NIL && done > best) {
          best = done;
          stuck = entry >>> 1;
          stuckState = state;
          stuckReason = ops[stuck] == null ? finalProblem(state, calls[stuck]) : null;
        }
        if (sp == 0) {
          return failure(stuck, stuckState, best, stuckReason);
        }
        sp--;
        int x = stackCall[sp];
        undo(x, stackDropped[sp]);
        if (!unknown[x]) {
          left++;
        }
        state = stackState[sp];
        stackState[sp] = null;
        stackDropped[sp] = null;
        entry = next[2 * x];
        continue;
      }
      int x = entry >>> 1;
      State after = FenceModel.step(state, calls[x]);
      if (after == null || (unknown[x] && after.equals(state))) {
        entry = next[entry];
        continue;
      }
      prunedCount = 0;
      lift(2 * x);
      if (!unknown[x]) {
        lift(2 * x + 1);
      }
      consume(x);
      int[] dropped = after.epoch > state.epoch ? drop(state.epoch, after.epoch) : null;
      // the final lookup's answers: for the operations that just left the search, and at the end
      boolean asAnswered = ops[x] != null || unsettledAtEnd(after) < 0;
      for (int k = 0; asAnswered && k < prunedCount; k++) {
        asAnswered = settled(after, pruned[k]);
      }
      if (!asAnswered) {
        undo(x, dropped);
        entry = next[entry];
        continue;
      }
      if (prunedCount > 0) {
        after = after.without(pruned, prunedCount);
      }
      if (!cache.add(key(after))) {
        undo(x, dropped);
        entry = next[entry];
        continue;
      }
      if (sp == stackCall.length) {
        stackCall = Arrays.copyOf(stackCall, sp * 2);
        stackState = Arrays.copyOf(stackState, sp * 2);
        stackDropped = Arrays.copyOf(stackDropped, sp * 2);
      }
      stackCall[sp] = x;
      stackState[sp] = state;
      stackDropped[sp] = dropped;
      sp++;
      if (!unknown[x]) {
        left--;
      }
      state = after;
      entry = next[head];
    }
    return new Result(
        Check.Status.PASS,
        String.format("%s: %d operations linearizable", resource, definite),
        null,
        definite,
        definite);
  }

  private Result failure(int stuck, State s, int best, String reason) {
    if (stuck < 0) {
      return new Result(
          Check.Status.FAIL, resource + ": not linearizable", null, Math.max(best, 0), definite);
    }
    Op op = ops[stuck];
    String what =
        op == null
            ? "the final state (FINAL epoch "
                + (calls[stuck].epoch() < 0 ? "?" : calls[stuck].epoch())
                + (calls[stuck].mayApply() ? ", value " + finalValue() : "")
                + ": "
                + reason
                + ")"
            : op.label()
                + " (invoked "
                + time.apply(op.call)
                + ", returned "
                + (op.ret == Long.MAX_VALUE ? "never" : time.apply(op.ret))
                + ")";
    String detail =
        String.format(
            "%s is not linearizable: no order of its operations consistent with real time explains"
                + " %s; the longest explained prefix has %d of %d operations and ends in registered"
                + " epoch %d, published value %s",
            resource, what, best, definite, s.epoch, valueName(s.value));
    return new Result(Check.Status.FAIL, detail, op, best, definite);
  }

  private String finalValue() {
    return finalValueText == null ? "none" : finalValueText;
  }

  private String valueName(int v) {
    if (v == FenceModel.NONE) {
      return "none";
    }
    for (int i = 0; i < n; i++) {
      if (ops[i] != null && calls[i].value() == v && ops[i].value != null) {
        return ops[i].value;
      }
    }
    return "#" + v;
  }
}
