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
package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.Fenceline;
import dev.fenceline.http.ApiRequest;
import dev.fenceline.http.HttpApiDestination;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.Guarantee;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A destination built from the configuration, with the strategy chosen for it and why. Files are
 * published streamed, never loaded whole.
 */
public final class ConfiguredDestination {

  private final String name;
  private final String type;
  private final Destination<?> destination;
  private final Strategy strategy;
  private final String why;
  private final Supplier<Fenceline> fenceline;
  private final HttpDestinationConfig.RequestTemplate request;
  private final Optional<String> resendRule;
  private final boolean sweepAfterPublish;

  ConfiguredDestination(
      String name,
      String type,
      Destination<?> destination,
      Strategy strategy,
      String why,
      Supplier<Fenceline> fenceline,
      HttpDestinationConfig.RequestTemplate request) {
    this(name, type, destination, strategy, why, fenceline, request, Optional.empty());
  }

  /** As above, with the re-send rule of an http destination (without secrets). */
  ConfiguredDestination(
      String name,
      String type,
      Destination<?> destination,
      Strategy strategy,
      String why,
      Supplier<Fenceline> fenceline,
      HttpDestinationConfig.RequestTemplate request,
      Optional<String> resendRule) {
    this(name, type, destination, strategy, why, fenceline, request, resendRule, false);
  }

  /** As above, saying whether the command line sweeps after a publish ({@code staged} only). */
  ConfiguredDestination(
      String name,
      String type,
      Destination<?> destination,
      Strategy strategy,
      String why,
      Supplier<Fenceline> fenceline,
      HttpDestinationConfig.RequestTemplate request,
      Optional<String> resendRule,
      boolean sweepAfterPublish) {
    this.sweepAfterPublish = sweepAfterPublish;
    this.resendRule = requireNonNull(resendRule, "resendRule is null");
    this.name = requireNonNull(name, "name is null");
    this.type = requireNonNull(type, "type is null");
    this.destination = requireNonNull(destination, "destination is null");
    this.strategy = requireNonNull(strategy, "strategy is null");
    this.why = requireNonNull(why, "why is null");
    this.fenceline = requireNonNull(fenceline, "fenceline is null");
    this.request = request;
  }

  /** The destination's name in the file (also its {@link Destination#name()}). */
  public String name() {
    return name;
  }

  /** The type of the store written to ({@code vfs}, {@code s3}, ...) or {@code http}. */
  public String type() {
    return type;
  }

  /**
   * The destination itself: a {@link StagedDestination} (changes are {@link InputStream}s) or an
   * {@link HttpApiDestination} (changes are {@link ApiRequest}s).
   */
  public Destination<?> destination() {
    return destination;
  }

  /**
   * The destination as a {@link StagedDestination}, for reading what it published ({@code
   * openVerified}, {@code resolveVersion}) and sweeping it; empty for an {@code http} destination.
   */
  public Optional<StagedDestination> staged() {
    return destination instanceof StagedDestination staged ? Optional.of(staged) : Optional.empty();
  }

  /**
   * True if {@code fenceline publish} and {@code run --publish} sweep this destination's resource
   * after each successful publish ({@code sweep-after-publish}, default true for a staged
   * destination; always false for an {@code http} one). {@link #publish} itself never sweeps: Java
   * callers call {@link StagedDestination#sweep()} when they choose.
   */
  public boolean sweepsAfterPublish() {
    return sweepAfterPublish;
  }

  /** What the destination can check and record by itself. */
  public Set<Capability> capabilities() {
    return destination.capabilities();
  }

  /** The guarantee its capabilities support. */
  public Guarantee guarantee() {
    return destination.guarantee();
  }

  /** How stale writers are kept out. */
  public Strategy strategy() {
    return strategy;
  }

  /** Which stores were chosen and why, in one sentence without secrets. */
  public String why() {
    return why;
  }

  /** The doctor's row for this destination. */
  public DestinationReport report() {
    return new DestinationReport(
        name, type, capabilities(), guarantee(), strategy, why, resendRule);
  }

  /**
   * Publishes {@code file} for {@code operation} with {@code token}, through the configuration's
   * {@link Fenceline} (so the {@code allow-*} flags apply): a staged destination streams the file
   * to its blob store and swaps the pointer; an HTTP destination sends the configured request with
   * the file as its body ({@code {resource}} and {@code {operation}} in its path replaced).
   *
   * @return the outcome: applied, already applied (with the first receipt), or rejected as stale
   * @throws dev.fenceline.spi.ConfigurationException if the destination's guarantee is weaker than
   *     the file allows
   * @throws StoreException if the file cannot be read or the destination failed (see {@link
   *     StoreException#outcomeUnknown()})
   */
  @SuppressWarnings("unchecked")
  public WriteOutcome publish(FencingToken token, OperationId operation, Path file) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(file, "file is null");
    if (!Files.isRegularFile(file)) {
      throw new StoreException(
          "Cannot publish " + file + " to " + name + ": it is not a readable file (check the path)",
          null,
          false);
    }
    if (destination instanceof HttpApiDestination http) {
      String path =
          request
              .path()
              .replace("{resource}", encode(token.resource().value()))
              .replace("{operation}", encode(operation.value()));
      ApiRequest call =
          ApiRequest.of(
              request.method(),
              path,
              request.contentType(),
              Map.of(),
              new ApiRequest.FileBody(file));
      return fenceline.get().publish(token, http, operation, call);
    }
    try (InputStream content = Files.newInputStream(file)) {
      return fenceline
          .get()
          .publish(token, (Destination<InputStream>) destination, operation, content);
    } catch (IOException e) {
      throw new StoreException(
          "Cannot publish " + file + " to " + name + ": " + e.getMessage() + " (check the file)",
          e,
          false);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Override
  public String toString() {
    return name + " (" + type + ", " + guarantee() + ", " + strategy + ")";
  }
}
