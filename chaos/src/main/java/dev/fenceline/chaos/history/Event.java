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
package dev.fenceline.chaos.history;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One line of a chaos history (see {@code docs/chaos.md#the-history}). Every field but {@code type}
 * and {@code t} is optional and absent from the JSON line when null.
 *
 * <p>An operation is an {@link Type#INVOKE} line and, unless its worker died first, one completion
 * line ({@link Type#OK}, {@link Type#FAIL} or {@link Type#INFO}) of the same {@code process} and
 * {@code index}. Faults are {@link Type#FAULT} lines; the driver appends what the destination
 * reports at the end as {@link Type#FINAL} lines, and writes one {@link Type#META} line first.
 *
 * @param type what the line is
 * @param t nanoseconds on the clock every process of the run shares ({@code System.nanoTime}, which
 *     is {@code CLOCK_MONOTONIC} on Linux and so comparable across the JVMs of one host)
 * @param process the worker ({@code w0}, {@code w1}, ...) or {@code driver}
 * @param index the operation's number within its process, shared by its invoke and completion
 * @param f the operation: {@link #ACQUIRE}, {@link #REGISTER}, {@link #WRITE}, {@link #READ},
 *     {@link #LOOKUP}, {@link #RELEASE}
 * @param resource the resource
 * @param epoch the token's epoch (acquire: the epoch handed out; register/write: the token's)
 * @param operation the operation ID of a write or lookup
 * @param value a write: the value it publishes; a read: the value it found (null: nothing
 *     published); a final line: the published value at the end
 * @param outcome the completion: {@link #APPLIED}, {@link #ALREADY_APPLIED}, {@link
 *     #REJECTED_STALE}, {@link #REGISTERED}, {@link #ACQUIRED}, {@link #BUSY}, {@link #FOUND},
 *     {@link #NOT_FOUND}, {@link #UNKNOWN} (INFO lines), {@link #ERROR} (FAIL lines)
 * @param receipt the receipt of an applied, already applied or found operation
 * @param current the epoch the destination reported as current (rejected stale) or registered
 *     before (registered), or the final registered epoch
 * @param error an error's class and message (FAIL and INFO lines)
 * @param fault the fault's kind (FAULT lines), e.g. {@code pause}, {@code resume}, {@code kill},
 *     {@code store-restart}, {@code store-kill}, {@code leader-kill}, {@code proxy-cut}, {@code
 *     proxy-delay}, {@code proxy-drop-answers}, {@code heal}
 * @param target what the fault hit: a process ({@code w3}) or a store ({@code postgres})
 * @param lookups FINAL lines: operation ID to its receipt found by lookup at the end, or null for
 *     "never applied"; operations whose lookup failed are absent and named in {@code error}
 * @param meta META lines: the run's settings (seed, workers, resources, destination, guarantee,
 *     faults, clock check)
 */
public record Event(
    Type type,
    long t,
    String process,
    Long index,
    String f,
    String resource,
    Long epoch,
    String operation,
    String value,
    String outcome,
    ReceiptView receipt,
    Long current,
    String error,
    String fault,
    String target,
    Map<String, ReceiptView> lookups,
    Map<String, String> meta) {

  /** The kinds of line. */
  public enum Type {
    /** The run's settings, first line. */
    @JsonProperty("meta")
    META,
    /** An operation started. */
    @JsonProperty("invoke")
    INVOKE,
    /** An operation completed with a definite outcome. */
    @JsonProperty("ok")
    OK,
    /** An operation completed and certainly changed nothing. */
    @JsonProperty("fail")
    FAIL,
    /** An operation completed and whether it changed anything is unknown. */
    @JsonProperty("info")
    INFO,
    /** A fault was injected or healed. */
    @JsonProperty("fault")
    FAULT,
    /** The destination's state at the end, per resource. */
    @JsonProperty("final")
    FINAL
  }

  /** Acquire a lease: OK with {@link #ACQUIRED} and the epoch, or {@link #BUSY}. */
  public static final String ACQUIRE = "acquire";

  /** Register the token's epoch at the destination. */
  public static final String REGISTER = "register";

  /** Publish {@code value} under {@code operation}. */
  public static final String WRITE = "write";

  /** Read the published value (verified). */
  public static final String READ = "read";

  /** Look an operation up. */
  public static final String LOOKUP = "lookup";

  /** Release the lease. */
  public static final String RELEASE = "release";

  public static final String APPLIED = "Applied";
  public static final String ALREADY_APPLIED = "AlreadyApplied";
  public static final String REJECTED_STALE = "RejectedStale";
  public static final String REGISTERED = "Registered";
  public static final String ACQUIRED = "Acquired";
  public static final String BUSY = "Busy";
  public static final String FOUND = "Found";
  public static final String NOT_FOUND = "NotFound";
  public static final String UNKNOWN = "Unknown";
  public static final String ERROR = "Error";

  /**
   * Checks that the line has a type.
   *
   * @throws NullPointerException if {@code type} is null
   */
  public Event {
    requireNonNull(type, "type is null");
    lookups = lookups == null ? null : Collections.unmodifiableMap(new TreeMap<>(lookups));
    meta = meta == null ? null : Map.copyOf(meta);
  }

  /** {@return a builder of a line of {@code type} at {@code t}} */
  public static Builder of(Type type, long t) {
    return new Builder(type, t);
  }

  /** {@return true for the completion lines OK, FAIL and INFO} */
  @JsonIgnore
  public boolean isCompletion() {
    return type == Type.OK || type == Type.FAIL || type == Type.INFO;
  }

  /**
   * A receipt as the history keeps it: everything a {@link dev.fenceline.spi.Receipt} says but the
   * destination, resource and operation (which the line names).
   *
   * @param epoch the epoch it was applied under
   * @param recordedAt when the destination recorded it (ISO-8601, the destination's clock)
   * @param attributes the destination's attributes
   */
  public record ReceiptView(long epoch, String recordedAt, Map<String, String> attributes) {

    /** Copies the attributes. */
    public ReceiptView {
      requireNonNull(recordedAt, "recordedAt is null");
      attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    /** {@return the view of {@code receipt}} */
    public static ReceiptView of(dev.fenceline.spi.Receipt receipt) {
      return new ReceiptView(
          receipt.epoch().value(), receipt.recordedAt().toString(), receipt.attributes());
    }
  }

  /** Builds an {@link Event}; unset fields stay null. */
  public static final class Builder {
    private final Type type;
    private final long t;
    private String process;
    private Long index;
    private String f;
    private String resource;
    private Long epoch;
    private String operation;
    private String value;
    private String outcome;
    private ReceiptView receipt;
    private Long current;
    private String error;
    private String fault;
    private String target;
    private Map<String, ReceiptView> lookups;
    private Map<String, String> meta;

    private Builder(Type type, long t) {
      this.type = requireNonNull(type, "type is null");
      this.t = t;
    }

    public Builder process(String process) {
      this.process = process;
      return this;
    }

    public Builder index(long index) {
      this.index = index;
      return this;
    }

    public Builder f(String f) {
      this.f = f;
      return this;
    }

    public Builder resource(String resource) {
      this.resource = resource;
      return this;
    }

    public Builder epoch(long epoch) {
      this.epoch = epoch;
      return this;
    }

    public Builder operation(String operation) {
      this.operation = operation;
      return this;
    }

    public Builder value(String value) {
      this.value = value;
      return this;
    }

    public Builder outcome(String outcome) {
      this.outcome = outcome;
      return this;
    }

    public Builder receipt(ReceiptView receipt) {
      this.receipt = receipt;
      return this;
    }

    public Builder current(long current) {
      this.current = current;
      return this;
    }

    public Builder error(String error) {
      this.error = error;
      return this;
    }

    public Builder fault(String fault) {
      this.fault = fault;
      return this;
    }

    public Builder target(String target) {
      this.target = target;
      return this;
    }

    public Builder lookups(Map<String, ReceiptView> lookups) {
      this.lookups = lookups;
      return this;
    }

    public Builder meta(Map<String, String> meta) {
      this.meta = meta;
      return this;
    }

    /** {@return the line} */
    public Event build() {
      return new Event(
          type, t, process, index, f, resource, epoch, operation, value, outcome, receipt, current,
          error, fault, target, lookups, meta);
    }
  }
}
