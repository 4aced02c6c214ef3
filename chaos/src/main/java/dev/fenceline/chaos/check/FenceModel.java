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

import java.util.Arrays;

/**
 * The sequential model the linearizability search checks a resource's history against: a fenced
 * destination with a registered epoch {@code E}, a published value {@code V} and the receipts of
 * the applied operations that are still live (an operation ID is dropped once every call of it is
 * linearized or can no longer take effect, which keeps the state small).
 *
 * <p>Steps (see {@code docs/chaos.md#the-checks}): {@code REGISTER(e)} → Registered iff e ≥ E (E :=
 * e), RejectedStale iff e &lt; E; {@code WRITE(e, o, v)} → Applied(r) iff e ≥ E and o not applied
 * (E := e, V := v, o ↦ r), AlreadyApplied(r) iff e ≥ E and o ↦ r (E := e), RejectedStale iff e &lt;
 * E; a write or register whose outcome is unknown may take its effect (the receipt of an Applied is
 * the final lookup's) or none; {@code READ} → Found(v) iff V = v, NotFound iff V is none; the final
 * line matches iff its value is V (when the target can read) and its epoch is at least E. The final
 * lookup's answers (each answered operation applied with the receipt found, or not applied) are
 * checked by {@link Linearizability}, which knows when an operation leaves the state.
 */
final class FenceModel {

  static final int REGISTER = 0;
  static final int WRITE = 1;
  static final int READ = 2;
  static final int FINAL = 3;

  static final int REGISTERED = 0;
  static final int APPLIED = 1;
  static final int ALREADY_APPLIED = 2;
  static final int REJECTED_STALE = 3;
  static final int UNKNOWN = 4;
  static final int FOUND = 5;
  static final int NOT_FOUND = 6;

  /** No value published yet / the value of a NotFound read. */
  static final int NONE = -1;

  /** A receipt that matches any (the final lookup of the operation had no answer). */
  static final int ANY_RECEIPT = -1;

  private FenceModel() {}

  /**
   * One call as the model sees it.
   *
   * @param kind {@link #REGISTER}, {@link #WRITE}, {@link #READ} or {@link #FINAL}
   * @param outcome {@link #REGISTERED} ... {@link #NOT_FOUND}
   * @param epoch the token's epoch (final: the final epoch, or -1 when unknown)
   * @param operation the interned operation ID, or -1
   * @param value the interned value (write: published; read/final: observed), or {@link #NONE}
   * @param receipt the interned receipt (Applied/AlreadyApplied; unknown write: the final
   *     lookup's), or {@link #ANY_RECEIPT}
   * @param mayApply an unknown write: whether it may have been the one that applied its operation
   *     (the final lookup found a receipt of its epoch, or had no answer); final: whether the value
   *     is checked
   */
  record Call(
      int kind, int outcome, long epoch, int operation, int value, int receipt, boolean mayApply) {}

  /** The state after {@code call} from {@code s}, or null if the call cannot take effect there. */
  static State step(State s, Call call) {
    long e = call.epoch();
    switch (call.kind()) {
      case REGISTER:
        switch (call.outcome()) {
          case REGISTERED:
          case UNKNOWN:
            return e >= s.epoch ? s.withEpoch(e) : null;
          case REJECTED_STALE:
            return e < s.epoch ? s : null;
          default:
            return null;
        }
      case WRITE:
        switch (call.outcome()) {
          case APPLIED:
            return e >= s.epoch && !s.isApplied(call.operation())
                ? s.withWrite(e, call.value(), call.operation(), call.receipt())
                : null;
          case ALREADY_APPLIED:
            return e >= s.epoch
                    && s.isApplied(call.operation())
                    && receiptsMatch(s.receipt(call.operation()), call.receipt())
                ? s.withEpoch(e)
                : null;
          case REJECTED_STALE:
            return e < s.epoch ? s : null;
          case UNKNOWN:
            if (e < s.epoch) {
              return null;
            }
            if (s.isApplied(call.operation())) {
              return s.withEpoch(e);
            }
            return call.mayApply()
                ? s.withWrite(e, call.value(), call.operation(), call.receipt())
                : null;
          default:
            return null;
        }
      case READ:
        return call.value() == s.value ? s : null;
      case FINAL:
        boolean valueOk = !call.mayApply() || call.value() == s.value;
        boolean epochOk = e < 0 || e >= s.epoch;
        return valueOk && epochOk ? s : null;
      default:
        return null;
    }
  }

  private static boolean receiptsMatch(int a, int b) {
    return a == ANY_RECEIPT || b == ANY_RECEIPT || a == b;
  }

  /** An immutable model state; equal states have equal futures. */
  static final class State {
    static final State INITIAL = new State(0, NONE, new long[0]);

    final long epoch;
    final int value;
    // sorted entries (operation << 32 | (receipt + 1)) of the live applied operations
    private final long[] applied;
    private final int hash;

    private State(long epoch, int value, long[] applied) {
      this.epoch = epoch;
      this.value = value;
      this.applied = applied;
      this.hash = (Long.hashCode(epoch) * 31 + value) * 31 + Arrays.hashCode(applied);
    }

    private int find(int operation) {
      for (int i = 0; i < applied.length; i++) {
        int op = (int) (applied[i] >>> 32);
        if (op == operation) {
          return i;
        }
        if (op > operation) {
          return -1;
        }
      }
      return -1;
    }

    boolean isApplied(int operation) {
      return find(operation) >= 0;
    }

    int receipt(int operation) {
      int i = find(operation);
      return i < 0 ? ANY_RECEIPT : (int) applied[i] - 1;
    }

    int liveApplied() {
      return applied.length;
    }

    State withEpoch(long e) {
      return e == epoch ? this : new State(e, value, applied);
    }

    State withWrite(long e, int v, int operation, int receipt) {
      long entry = ((long) operation << 32) | ((receipt + 1) & 0xffffffffL);
      long[] next = new long[applied.length + 1];
      int j = 0;
      boolean placed = false;
      for (long a : applied) {
        if (!placed && (a >>> 32) > operation) {
          next[j++] = entry;
          placed = true;
        }
        next[j++] = a;
      }
      if (!placed) {
        next[j] = entry;
      }
      return new State(e, v, next);
    }

    /** {@return this state without the operations in {@code ops[0..n)}} */
    State without(int[] ops, int n) {
      int keep = 0;
      long[] next = new long[applied.length];
      outer:
      for (long a : applied) {
        int op = (int) (a >>> 32);
        for (int i = 0; i < n; i++) {
          if (ops[i] == op) {
            continue outer;
          }
        }
        next[keep++] = a;
      }
      return keep == applied.length ? this : new State(epoch, value, Arrays.copyOf(next, keep));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof State s
          && s.hash == hash
          && s.epoch == epoch
          && s.value == value
          && Arrays.equals(s.applied, applied);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
