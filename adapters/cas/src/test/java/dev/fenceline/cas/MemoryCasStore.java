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
  private volatile Fault fault;

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
    Fault armed = fault;
    fault = null;
    if (armed == null) {
      return swap(read, next);
    }
    if (armed.lands() && !swap(read, next)) {
      return false; // refused on its first attempt: nothing to lose
    }
    armed.others().run();
    return swap(read, next); // the re-send: refused, the version it names is gone
  }

  private synchronized boolean swap(Read read, ControlDocument next) {
    Versioned current = controls.get(read.resource());
    long version = current == null ? 0 : current.version();
    if (version != read.version()) {
      return false;
    }
    controls.put(read.resource(), new Versioned(next, version + 1));
    return true;
  }

  private static StrictJson.Where where(String key) {
    return new StrictJson.Where("record", key, "restore it");
  }
}
