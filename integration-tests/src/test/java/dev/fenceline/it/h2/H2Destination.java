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
package dev.fenceline.it.h2;

import static java.util.Objects.requireNonNull;

import dev.fenceline.locking.LockingSteps;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.time.Clock;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A fenced destination of payloads on H2: each resource's current payload is a row of the
 * destination, replaced in the same transaction as the epoch check and the operation record ({@link
 * LockingSteps}). The payload is streamed into the database and fingerprinted by its SHA-256, so a
 * retry of an operation with another payload is refused.
 */
public final class H2Destination implements Destination<InputStream>, SupportsEpochReset {

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private final H2Store store;
  private final LockingSteps<Connection> steps;

  H2Destination(
      H2Store store, String name, StepListener listener, Clock clock, Optional<TokenKeys> keys) {
    this.store = requireNonNull(store, "store is null");
    this.steps = new LockingSteps<>(name, store, listener, clock, keys);
  }

  @Override
  public String name() {
    return steps.name();
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public RegisterOutcome register(FencingToken token) {
    return steps.register(token);
  }

  @Override
  public WriteOutcome write(FencingToken token, OperationId operation, InputStream change) {
    requireNonNull(change, "change is null");
    return steps.write(token, operation, new Payload(token.resource(), change));
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    return steps.lookup(resource, operation);
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    return steps.currentEpoch(resource);
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    return steps.resetRegisteredEpoch(resource, epoch, reason);
  }

  /** The payload readers see for {@code resource} now, if one was published. */
  public Optional<byte[]> read(ResourceId resource) {
    return store.payload(name(), resource);
  }

  /** How many payloads were applied to {@code resource} so far. */
  public long appliedCount(ResourceId resource) {
    return store.version(name(), resource);
  }

  /**
   * The payload as a change: streamed into the database when applied, or read through only to
   * fingerprint it when the operation was recorded already. Either way its SHA-256 is the request
   * fingerprint.
   */
  private final class Payload implements LockingSteps.Change<Connection> {
    private final ResourceId resource;
    private final DigestInputStream content;
    private long size;
    private boolean read;
    private String sha256Hex;

    Payload(ResourceId resource, InputStream content) {
      this.resource = resource;
      this.content = new DigestInputStream(content, sha256());
    }

    @Override
    public RequestFingerprint fingerprint() throws IOException {
      drain();
      return RequestFingerprint.ofSha256Hex(hex());
    }

    @Override
    public Map<String, String> apply(Connection transaction) throws Exception {
      store.storePayload(transaction, name(), resource, new Counted());
      if (drain() > 0) {
        throw new IOException(
            "the database stopped reading the payload of " + resource + " before its end");
      }
      return Map.of(H2Store.SIZE, Long.toString(size), H2Store.SHA256, hex());
    }

    /** Reads the rest of the payload (into the digest); returns how many bytes were left. */
    private long drain() throws IOException {
      if (read) {
        return 0;
      }
      long left = 0;
      byte[] buffer = new byte[8192];
      for (int n = content.read(buffer); n != -1; n = content.read(buffer)) {
        left += n;
      }
      size += left;
      read = true;
      return left;
    }

    /** The SHA-256 of the whole payload; call once it was read to its end. */
    private String hex() {
      if (sha256Hex == null) {
        sha256Hex = HexFormat.of().formatHex(content.getMessageDigest().digest());
      }
      return sha256Hex;
    }

    /** The payload as the database reads it: counted, and marked read at its end. */
    private final class Counted extends InputStream {
      @Override
      public int read() throws IOException {
        int b = content.read();
        if (b == -1) {
          read = true;
        } else {
          size++;
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = content.read(buffer, offset, length);
        if (n == -1) {
          read = true;
        } else {
          size += n;
        }
        return n;
      }
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
