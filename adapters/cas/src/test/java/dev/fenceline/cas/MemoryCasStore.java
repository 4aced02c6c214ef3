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

import dev.fenceline.cas.ControlDocument.Entry;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A compare-and-swap store in memory for {@link CasPointerSteps}: one control document per resource
 * with a version, replaced only at the version read. It can lose the answer of the next
 * replacement: the replacement lands (or, for a first attempt that was never sent, does not), then
 * other writers commit, then the client's re-send is refused as the first version is gone, which is
 * what an SDK retry after a lost answer sees.
 */
final class MemoryCasStore implements CasPointerSteps.Store<MemoryCasStore.Read> {

  /** A read: the document and its version (0: none). */
  record Read(ResourceId resource, ControlDocument control, long version)
      implements CasPointerSteps.Read {}

  private record Versioned(ControlDocument control, long version) {}

  private final Map<ResourceId, Versioned> controls = new ConcurrentHashMap<>();
  private final Map<String, byte[]> records = new ConcurrentHashMap<>();
  private final String name = "reports";
  private final boolean knowsWrittenVersions;
  private final boolean recordsInSwap;
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger replacements = new AtomicInteger();
  private volatile Fault fault;

  /** A store whose replacements tell no version: every step reads first. */
  MemoryCasStore() {
    this(false, false);
  }

  /**
   * @param knowsWrittenVersions whether an accepted replacement tells the new version ({@link
   *     CasPointerSteps.Store#replaceKnowing}), as S3's ETag and ZooKeeper's stat do
   * @param recordsInSwap whether a swap creates the operation's and version's records, create-only,
   *     in the same atomic step (as ZooKeeper's transaction does), refusing it if they exist
   */
  MemoryCasStore(boolean knowsWrittenVersions, boolean recordsInSwap) {
    this.knowsWrittenVersions = knowsWrittenVersions;
    this.recordsInSwap = recordsInSwap;
  }

  /** Reads of control documents so far. */
  int reads() {
    return reads.get();
  }

  /** Replacements sent so far (a re-send after a lost answer counts once). */
  int replacements() {
    return replacements.get();
  }

  /** What happens to the next replacement, and what other writers do before its re-send. */
  private record Fault(boolean lands, Runnable others) {}

  /**
   * The next replacement lands, its answer is lost, {@code others} commit, and the re-send is
   * refused.
   */
  void loseAnswerOfNextReplacement(Runnable others) {
    fault = new Fault(true, others);
  }

  /**
   * The next replacement's first attempt fails before it is sent, {@code others} commit, and the
   * re-send is refused.
   */
  void failNextReplacementUnsent(Runnable others) {
    fault = new Fault(false, others);
  }

  ControlDocument control(ResourceId resource) {
    Versioned versioned = controls.get(resource);
    return versioned == null ? ControlDocument.EMPTY : versioned.control();
  }

  @Override
  public Read read(ResourceId resource, String action) {
    reads.incrementAndGet();
    Versioned versioned = controls.get(resource);
    return versioned == null
        ? new Read(resource, ControlDocument.EMPTY, 0)
        : new Read(resource, versioned.control(), versioned.version());
  }

  @Override
  public CasPointerSteps.Stored operationRecord(
      ResourceId resource, OperationId operation, String action) {
    String key = "operation/" + resource + "/" + RecordNames.operationDigest(operation);
    return new CasPointerSteps.Stored(where(key), Optional.ofNullable(records.get(key)));
  }

  @Override
  public CasPointerSteps.Stored versionRecord(ResourceId resource, long version, String action) {
    String key = "version/" + resource + "/" + version;
    return new CasPointerSteps.Stored(where(key), Optional.ofNullable(records.get(key)));
  }

  @Override
  public boolean beforeReplacing(ResourceId resource, Entry current) {
    byte[] json = current.toStoredJson(name, resource);
    records.putIfAbsent(
        "operation/" + resource + "/" + RecordNames.operationDigest(current.operation()), json);
    records.putIfAbsent("version/" + resource + "/" + current.version(), json);
    return true;
  }

  @Override
  public boolean replace(Read read, ControlDocument next, Optional<Entry> applied, String action) {
    return replaceKnowing(read, next, applied, action).accepted();
  }

  @Override
  public CasPointerSteps.Replacement<Read> replaceKnowing(
      Read read, ControlDocument next, Optional<Entry> applied, String action) {
    replacements.incrementAndGet();
    Fault armed = fault;
    fault = null;
    Read written;
    if (armed == null) {
      written = swap(read, next, applied);
    } else {
      if (armed.lands() && swap(read, next, applied) == null) {
        return CasPointerSteps.Replacement.refused(); // refused on its first attempt
      }
      armed.others().run();
      written = swap(read, next, applied); // the re-send: refused, the version it names is gone
    }
    if (written == null) {
      return CasPointerSteps.Replacement.refused();
    }
    return CasPointerSteps.Replacement.accepted(knowsWrittenVersions ? written : null);
  }

  @Override
  public boolean swapRefusesRecordedOperation() {
    return recordsInSwap;
  }

  /** The swap, atomic: the document as written with its new version, or null if refused. */
  private synchronized Read swap(Read read, ControlDocument next, Optional<Entry> applied) {
    Versioned current = controls.get(read.resource());
    long version = current == null ? 0 : current.version();
    if (version != read.version()) {
      return null;
    }
    if (recordsInSwap && applied.isPresent()) {
      Entry entry = applied.get();
      String operation = operationKey(read.resource(), entry.operation());
      String versionKey = "version/" + read.resource() + "/" + entry.version();
      if (records.containsKey(operation) || records.containsKey(versionKey)) {
        return null;
      }
      byte[] json = entry.toStoredJson(name, read.resource());
      records.put(operation, json);
      records.put(versionKey, json);
    }
    controls.put(read.resource(), new Versioned(next, version + 1));
    return new Read(read.resource(), next, version + 1);
  }

  private static String operationKey(ResourceId resource, OperationId operation) {
    return "operation/" + resource + "/" + RecordNames.operationDigest(operation);
  }

  private static StrictJson.Where where(String key) {
    return new StrictJson.Where("record", key, "restore it");
  }
}
