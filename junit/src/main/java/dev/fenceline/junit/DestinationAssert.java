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
package dev.fenceline.junit;

import dev.fenceline.spi.Applied;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.RejectedStale;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on what a {@link RecordingDestination} did with the writes it received; a failure
 * lists what it did instead.
 *
 * @param <C> the destination's change type
 */
public final class DestinationAssert<C>
    extends AbstractAssert<DestinationAssert<C>, RecordingDestination<C>> {

  DestinationAssert(RecordingDestination<C> actual) {
    super(actual, DestinationAssert.class);
  }

  /** A write with {@code token} was rejected as stale. */
  public DestinationAssert<C> hasRejectedAsStale(FencingToken token) {
    return answered(token, RejectedStale.class, "rejected a write with", "as stale");
  }

  /** A write with {@code token} was applied. */
  public DestinationAssert<C> hasApplied(FencingToken token) {
    return answered(token, Applied.class, "applied a write with", "");
  }

  private DestinationAssert<C> answered(
      FencingToken token, Class<? extends WriteOutcome> expected, String verb, String suffix) {
    isNotNull();
    Objects.requireNonNull(token, "token is null");
    List<RecordedWrite<C>> withToken =
        actual.writes().stream().filter(write -> write.token().equals(token)).toList();
    if (withToken.stream()
        .anyMatch(write -> write.outcome().filter(expected::isInstance).isPresent())) {
      return this;
    }
    String expectation =
        "Expected "
            + actual.name()
            + " to have "
            + verb
            + " "
            + Descriptions.token(token)
            + (suffix.isEmpty() ? "" : " " + suffix);
    failWithMessage(
        "%s",
        withToken.isEmpty()
            ? expectation + ", but it received no write with that token; " + allWrites()
            : expectation + ", but " + describe(withToken));
    return this;
  }

  /**
   * What a reader of {@code resource} sees at the destination is {@code expected} (only for an
   * {@link InMemoryDestination}, which can be read).
   */
  public DestinationAssert<C> hasPublished(ResourceId resource, C expected) {
    isNotNull();
    if (!(actual instanceof InMemoryDestination<C> destination)) {
      throw new IllegalArgumentException(
          "Cannot check what "
              + actual.name()
              + " publishes: it records the writes to your own destination, which it cannot read"
              + " (read it from your destination)");
    }
    Optional<C> published = destination.published(resource);
    if (published.isPresent() && Objects.equals(published.get(), expected)) {
      return this;
    }
    String expectation =
        "Expected "
            + actual.name()
            + " to publish "
            + info.representation().toStringOf(expected)
            + " for "
            + resource;
    if (published.isEmpty()) {
      failWithMessage(
          "%s", expectation + ", but nothing was published for " + resource + "; " + allWrites());
    }
    PointerState state = destination.current(resource).orElseThrow();
    failWithMessage(
        "%s",
        expectation
            + ", but it publishes "
            + info.representation().toStringOf(published.get())
            + " (applied at epoch "
            + state.epoch()
            + " as operation "
            + state.operation()
            + ")");
    return this;
  }

  private String allWrites() {
    List<RecordedWrite<C>> writes = actual.writes();
    return writes.isEmpty()
        ? "it received no writes at all"
        : "writes it received: " + describe(writes);
  }

  private static String describe(List<? extends RecordedWrite<?>> writes) {
    return writes.stream().map(RecordedWrite::describe).collect(Collectors.joining("; "));
  }
}
