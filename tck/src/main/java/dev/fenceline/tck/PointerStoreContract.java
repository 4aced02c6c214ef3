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
package dev.fenceline.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fenceline.spi.AlreadyApplied;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationConflictException;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.TokenKeys;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The destination suite plus the pointer-specific tests every {@link PointerStore} passes. A
 * pointer store's change is a {@link Pointer}; what readers see is the current pointer's target.
 */
public abstract class PointerStoreContract extends DestinationContract<Pointer> {

  /**
   * A pointer store named {@code name} over the store as it is now, reporting steps to {@code
   * steps}; if {@code keys} is present it refuses tokens not signed with them.
   */
  protected abstract PointerStore pointerStore(
      String name, StepListener steps, Optional<TokenKeys> keys);

  private PointerStore pointerStore() {
    return pointerStore("tck", StepListener.NONE, Optional.empty());
  }

  @Override
  protected final Destination<Pointer> destination(
      String name, StepListener steps, Optional<TokenKeys> keys) {
    return pointerStore(name, steps, keys);
  }

  @Override
  protected final Pointer change(ResourceId resource, String payload) {
    return Pointer.to(payload);
  }

  @Override
  protected final Optional<String> published(ResourceId resource) {
    return pointerStore().current(resource).map(state -> state.pointer().target());
  }

  @Override
  protected final long applyCount(ResourceId resource) {
    return pointerStore().current(resource).map(PointerState::version).orElse(0L);
  }

  @Test
  void aPointerStoreOffersResultLookup() {
    // Required of every pointer store (PointerStore), optional for other destinations: staged
    // destinations answer their lookups from it.
    assertThat(pointerStore().capabilities())
        .contains(
            Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);
  }

  @Test
  void theReceiptNamesTheTargetAndKeepsThePointersAttributes() {
    ResourceId resource = freshResource("pointer-receipt");
    FencingToken token = new FencingToken(issuer().id(), resource, Epoch.of(3), "worker-a");
    Pointer pointer = new Pointer("staging/3-abc", Map.of("size", "42", "sha256", "00ff"));

    Applied applied = (Applied) pointerStore().write(token, OperationId.of("op"), pointer);

    assertThat(applied.receipt().attributes())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("size", "42", "sha256", "00ff", PointerStore.TARGET_ATTRIBUTE, "staging/3-abc"));
    assertThat(pointerStore().current(resource))
        .contains(new PointerState(resource, pointer, Epoch.of(3), OperationId.of("op"), 1));
  }

  @Test
  void pointersAreScopedPerStoreNameAndAStagedFingerprintReplacesThePointers() {
    ResourceId resource = freshResource("pointer-scope");
    FencingToken token = new FencingToken(issuer().id(), resource, Epoch.of(2), "worker-a");
    PointerStore reports = pointerStore("reports", StepListener.NONE, Optional.empty());
    PointerStore thumbnails = pointerStore("thumbnails", StepListener.NONE, Optional.empty());
    RequestFingerprint payload = RequestFingerprint.sha256("the payload");

    reports.write(token, OperationId.of("v1"), Pointer.to("staging/1-a"), payload);
    thumbnails.write(token, OperationId.of("v1"), Pointer.to("thumb"));

    assertThat(reports.current(resource).orElseThrow().pointer().target()).isEqualTo("staging/1-a");
    assertThat(thumbnails.current(resource).orElseThrow().pointer().target()).isEqualTo("thumb");
    assertThat(reports.name()).isEqualTo("reports");
    assertThat(thumbnails.name()).isEqualTo("thumbnails");
    // Staging areas are keyed by the store's identity: it is never blank.
    assertThat(reports.storeId()).isNotBlank().isEqualTo(thumbnails.storeId());
    // A retry stages under a new key: the same payload fingerprint makes it the same request.
    assertThat(reports.write(token, OperationId.of("v1"), Pointer.to("staging/1-b"), payload))
        .isInstanceOf(AlreadyApplied.class);
    assertThatThrownBy(
            () ->
                reports.write(
                    token,
                    OperationId.of("v1"),
                    Pointer.to("staging/1-c"),
                    RequestFingerprint.sha256("another payload")))
        .isInstanceOf(OperationConflictException.class);
    assertThat(reports.history(resource, 10)).hasSize(1);
  }

  @Test
  void historyListsAppliedSwapsNewestFirstAndSkipsRejectedOnes() {
    ResourceId resource = freshResource("pointer-history");
    PointerStore store = pointerStore();
    store.write(
        new FencingToken(issuer().id(), resource, Epoch.of(1), "a"),
        OperationId.of("v1"),
        Pointer.to("1"));
    store.write(
        new FencingToken(issuer().id(), resource, Epoch.of(2), "b"),
        OperationId.of("v2"),
        Pointer.to("2"));
    store.write(
        new FencingToken(issuer().id(), resource, Epoch.of(2), "b"),
        OperationId.of("v2"),
        Pointer.to("2"));
    store.write(
        new FencingToken(issuer().id(), resource, Epoch.of(1), "a"),
        OperationId.of("v3"),
        Pointer.to("x"));
    store.write(
        new FencingToken(issuer().id(), resource, Epoch.of(2), "b"),
        OperationId.of("v4"),
        Pointer.to("4"));

    assertThat(store.history(resource, 10))
        .extracting(state -> state.pointer().target() + "@" + state.epoch() + "#" + state.version())
        .containsExactly("4@2#3", "2@2#2", "1@1#1");
    assertThat(store.history(resource, 2)).hasSize(2);
    assertThat(store.history(freshResource("pointer-empty"), 5)).isEmpty();
    assertThatThrownBy(() -> store.history(resource, 0)).hasMessageContaining("limit 0");
  }
}
