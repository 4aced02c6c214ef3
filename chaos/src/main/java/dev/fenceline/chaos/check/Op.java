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

import dev.fenceline.chaos.history.Event;
import dev.fenceline.chaos.history.Event.ReceiptView;
import dev.fenceline.chaos.history.Event.Type;

/**
 * One operation of a history: an invoke line and its completion (null when the worker died before
 * it completed, which makes the outcome unknown and the return time +infinity).
 */
final class Op {
  final int seq;
  final Event invoke;
  final Event completion;
  final String process;
  final long index;
  final String f;
  final String resource;
  final Long epoch;
  final String operation;
  final String value;
  final long call;
  final long ret;

  Op(int seq, Event invoke, Event completion) {
    this.seq = seq;
    this.invoke = invoke;
    this.completion = completion;
    this.process = invoke.process();
    this.index = invoke.index() == null ? -1 : invoke.index();
    this.f = invoke.f() != null ? invoke.f() : completion == null ? null : completion.f();
    this.resource =
        invoke.resource() != null
            ? invoke.resource()
            : completion == null ? null : completion.resource();
    this.epoch =
        completion != null && completion.epoch() != null && Event.ACQUIRE.equals(f)
            ? completion.epoch()
            : invoke.epoch() != null
                ? invoke.epoch()
                : completion == null ? null : completion.epoch();
    this.operation =
        invoke.operation() != null
            ? invoke.operation()
            : completion == null ? null : completion.operation();
    if (Event.READ.equals(f)) {
      this.value = completion == null ? null : completion.value();
    } else {
      this.value =
          invoke.value() != null ? invoke.value() : completion == null ? null : completion.value();
    }
    this.call = invoke.t();
    this.ret = unknown() ? Long.MAX_VALUE : completion.t();
  }

  /** The outcome did not come back: an info line or no completion at all. */
  boolean unknown() {
    return completion == null || completion.type() == Type.INFO;
  }

  /** The operation certainly changed nothing. */
  boolean failed() {
    return completion != null && completion.type() == Type.FAIL;
  }

  boolean ok() {
    return completion != null && completion.type() == Type.OK;
  }

  boolean is(String function) {
    return function.equals(f);
  }

  boolean okWith(String outcome) {
    return ok() && outcome.equals(completion.outcome());
  }

  /** The outcome as counted: the OK line's, {@code Unknown} or {@code Error}. */
  String outcome() {
    if (unknown()) {
      return Event.UNKNOWN;
    }
    if (failed()) {
      return Event.ERROR;
    }
    return completion.outcome() == null ? "(none)" : completion.outcome();
  }

  ReceiptView receipt() {
    return completion == null ? null : completion.receipt();
  }

  long epochOrZero() {
    return epoch == null ? 0 : epoch;
  }

  /** E.g. {@code w3#17 write epoch=5 op=job-2-1 -> Applied}. */
  String label() {
    StringBuilder s = new StringBuilder();
    s.append(process).append('#').append(index).append(' ').append(f);
    if (epoch != null) {
      s.append(" epoch=").append(epoch);
    }
    if (operation != null) {
      s.append(" op=").append(operation);
    }
    if (value != null && !(Event.WRITE.equals(f) && value.equals(operation))) {
      s.append(" value=").append(value);
    }
    s.append(" -> ").append(outcome());
    if (Event.READ.equals(f) && ok() && value == null && Event.FOUND.equals(outcome())) {
      s.append("(null)");
    }
    return s.toString();
  }
}
