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
package dev.fenceline.chaos;

import static java.util.Objects.requireNonNull;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.core.Fenceline;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in target: a destination of a Fenceline YAML file ({@link FencelineConfig}), with the
 * file's {@code issuer:} store handing out the leases.
 *
 * <p>Settings: {@value #CONFIG}, the YAML file, and {@value #DESTINATION}, the destination's name
 * in it. A staged destination is published by streaming the payload through the worker's {@link
 * Fenceline} and read back with {@link StagedDestination#openVerified}; an {@code http} destination
 * is published through {@link ConfiguredDestination#publish} (the payload written to a temporary
 * file first, the file's {@code allow-*} flags applying) and cannot be read.
 */
public final class ConfigTargetFactory implements ChaosTargetFactory {

  /** The setting that names the YAML file. */
  public static final String CONFIG = "config";

  /** The setting that names the destination in the file. */
  public static final String DESTINATION = "destination";

  /** Public no-argument constructor: worker processes instantiate this class by name. */
  public ConfigTargetFactory() {}

  /**
   * {@inheritDoc}
   *
   * @throws ConfigurationException if a setting is missing, the file cannot be loaded or has no
   *     such destination (the message names the value and the fix)
   */
  @Override
  public ChaosTarget open(Map<String, String> settings) {
    requireNonNull(settings, "settings is null");
    String file = settings.get(CONFIG);
    if (file == null || file.isBlank()) {
      throw new ConfigurationException(
          "Cannot open the configuration target: setting \""
              + CONFIG
              + "\" is missing (pass the YAML file, e.g. config=fenceline.yaml)");
    }
    String name = settings.get(DESTINATION);
    if (name == null || name.isBlank()) {
      throw new ConfigurationException(
          "Cannot open the configuration target of "
              + file
              + ": setting \""
              + DESTINATION
              + "\" is missing (pass the name of one of its destinations:)");
    }
    FencelineConfig config = FencelineConfig.load(Path.of(file));
    try {
      ConfiguredDestination destination = config.destination(name);
      return new ConfigTarget(config, destination);
    } catch (RuntimeException e) {
      config.close();
      throw e;
    }
  }

  /** The opened configuration and its destination. */
  private static final class ConfigTarget implements ChaosTarget {

    private final FencelineConfig config;
    private final ConfiguredDestination configured;
    private final Optional<StagedDestination> staged;

    ConfigTarget(FencelineConfig config, ConfiguredDestination configured) {
      this.config = config;
      this.configured = configured;
      this.staged = configured.staged();
    }

    @Override
    public LeaseIssuer issuer() {
      return config.issuer();
    }

    @Override
    public Destination<?> destination() {
      return configured.destination();
    }

    @Override
    public WriteOutcome publish(
        Fenceline fenceline, FencingToken token, OperationId operation, byte[] payload) {
      if (staged.isPresent()) {
        return fenceline.publish(token, staged.get(), operation, new ByteArrayInputStream(payload));
      }
      // http (and anything else the file can build): the configured request with the file as body.
      Path file;
      try {
        file = Files.createTempFile("fenceline-chaos-", ".payload");
        Files.write(file, payload);
      } catch (IOException e) {
        throw new StoreException(
            "Cannot publish to "
                + configured.name()
                + ": cannot write the payload to a temporary file ("
                + e.getMessage()
                + "; check java.io.tmpdir)",
            e,
            false);
      }
      try {
        return configured.publish(token, operation, file);
      } finally {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          // A left-over temporary file is harmless.
        }
      }
    }

    @Override
    public boolean canRead() {
      return staged.isPresent();
    }

    @Override
    public Optional<byte[]> read(ResourceId resource) {
      StagedDestination destination =
          staged.orElseThrow(
              () ->
                  new UnsupportedOperationException(
                      "Cannot read "
                          + resource
                          + " from "
                          + configured
                          + ": only a staged destination can be read back"));
      if (destination.resolve(resource).isEmpty()) {
        return Optional.empty();
      }
      try (InputStream in = destination.openVerified(resource)) {
        return Optional.of(in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot read " + resource + " from " + configured.name() + ": " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      config.close();
    }

    @Override
    public String toString() {
      return configured.toString();
    }
  }
}
