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
package dev.fenceline.s3;

import static java.util.Objects.requireNonNull;

import dev.fenceline.cas.CasPointerSteps;
import dev.fenceline.cas.ControlDocument;
import dev.fenceline.cas.ControlDocument.Entry;
import dev.fenceline.cas.StrictJson;
import dev.fenceline.spi.Capability;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.FencingStep;
import dev.fenceline.spi.FencingToken;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.Receipt;
import dev.fenceline.spi.RegisterOutcome;
import dev.fenceline.spi.RequestFingerprint;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StepListener;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsEpochReset;
import dev.fenceline.spi.TokenKeys;
import dev.fenceline.spi.WriteOutcome;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link PointerStore} fenced by S3 conditional writes alone, with no database. Obtain it from
 * {@link S3Store#pointerStore(String)}, which opens it only on an endpoint that passed the {@link
 * ConditionalWrites} probe.
 *
 * <p>Per resource one small control object (JSON) holds the registered epoch, its issuer and every
 * destination name's current pointer with its operation's receipt. Every change reads it (with its
 * ETag, or finds it absent), decides, and writes it back with a conditional PUT ({@code If-Match:
 * <etag>}, or {@code If-None-Match: *} when it was absent): the epoch check and the swap are one
 * atomic request, and a 412 or 409 answer means another step committed in between, so the step
 * reads again and decides again. The control object is never written unconditionally. See {@link
 * PointerKeys} for where the objects live.
 *
 * <p>Receipts and pointer versions stay findable for ever while the control object stays small:
 * before a write replaces a name's current entry it stores that (committed) entry as two
 * create-only immutable objects, one keyed by its operation and one by its version. So the control
 * object never moves past a version whose objects do not exist, an applied operation always has a
 * findable receipt (its entry in the control object, or its operation object), and no object is
 * ever written for an operation that was not committed (an object's content is determined by the
 * committed entry, so two writers storing it store the same bytes). A crash between any two
 * requests leaves either the operation applied and findable, or nothing of it.
 *
 * <p>SDK retries and conditions: a conditional PUT that landed but whose answer was lost is retried
 * by the SDK with the same condition and comes back as 412. Each PUT carries a nonce stored in the
 * control object (and in the entry it applies), so a 412 is decided by reading again: if the nonce
 * is there, the PUT landed and the step answers as if the first answer had arrived; if not, another
 * writer committed first (perhaps while the first attempt never left the client) and the step
 * decides again ({@link CasPointerSteps#landed}). A write whose outcome cannot be decided fails
 * with {@link StoreException#outcomeUnknown()}.
 *
 * <p>{@link FencingStep}s: {@code BEFORE_LOCK} before the first read, {@code AFTER_EPOCH_CHECK}
 * after each decision, {@code AFTER_APPLY} right before the conditional PUT of the control object,
 * {@code AFTER_COMMIT} after it succeeded. A listener that throws aborts the step with nothing
 * committed. Thread-safe; nobody waits for a paused writer ({@code COMPARE_AND_SWAP}).
 */
public final class S3PointerStore implements PointerStore, SupportsEpochReset {

  private static final Set<Capability> CAPABILITIES =
      EnumSet.of(
          Capability.NATIVE_EPOCH_CHECK, Capability.OPERATION_RECORD, Capability.RESULT_LOOKUP);

  private static final Pattern STORE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final S3Location location;
  private final String name;
  private final String storeId;
  private final CasPointerSteps<ControlRead> steps;
  private final TokenKeys keys;

  S3PointerStore(
      S3Location location,
      String name,
      String storeId,
      StepListener steps,
      Clock clock,
      TokenKeys keys) {
    this.location = requireNonNull(location, "location is null");
    this.name = Destination.validateName(name);
    this.storeId = requireNonNull(storeId, "storeId is null");
    this.steps = new CasPointerSteps<>(name, new ControlObjects(), steps, clock);
    this.keys = keys;
  }

  /**
   * Reads the store's identity object, creating it (create-only, so every process agrees on the
   * first one) if it does not exist.
   *
   * @return {@code s3-} and the stored random ID
   * @throws StoreException if the endpoint fails or the object is unreadable
   */
  static String loadStoreId(S3Location location) {
    String key = location.objectKey(PointerKeys.store());
    String shown = location.describe(key);
    for (int attempt = 0; ; attempt++) {
      Optional<byte[]> stored = get(location, key);
      if (stored.isPresent()) {
        return "s3-" + parseStoreId(stored.get(), shown);
      }
      String fresh = UUID.randomUUID().toString();
      byte[] json =
          JSON.writeValueAsBytes(
              JSON.createObjectNode().put("format", StrictJson.FORMAT).put("id", fresh));
      try {
        putJson(location, key, json, null);
        return "s3-" + fresh;
      } catch (SdkException e) {
        // 412: another process created it first; read it. 409: its creation is in progress.
        if (!S3Location.preconditionFailed(e) || attempt >= 10) {
          throw location.failure("create the pointer store identity " + shown, e, false);
        }
      }
    }
  }

  /**
   * The pointer store identity the bucket holds under the prefix, read without creating it; empty
   * if there is none yet.
   */
  static Optional<String> readStoreId(S3Location location) {
    String key = location.objectKey(PointerKeys.store());
    return get(location, key).map(json -> "s3-" + parseStoreId(json, location.describe(key)));
  }

  private static String parseStoreId(byte[] json, String shown) {
    try {
      JsonNode root = JSON.readTree(json);
      JsonNode id = root == null ? null : root.get("id");
      JsonNode format = root == null ? null : root.get("format");
      if (format != null
          && format.isIntegralNumber()
          && format.asLong() == StrictJson.FORMAT
          && id != null
          && id.isString()
          && STORE_ID.matcher(id.stringValue()).matches()) {
        return id.stringValue();
      }
    } catch (JacksonException e) {
      // Reported below, as any other unreadable identity.
    }
    throw new StoreException(
        "Cannot read the pointer store identity "
            + shown
            + ": expected {\"format\":"
            + StrictJson.FORMAT
            + ",\"id\":\"<1 to 64 characters of [A-Za-z0-9._-]>\"} (restore the object; staging"
            + " areas are keyed by this identity)",
        null,
        false);
  }

  @Override
  public String name() {
    return name;
  }

  /** {@code s3-} and a random ID created once per bucket and prefix, the same in every process. */
  @Override
  public String storeId() {
    return storeId;
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  /** A control PUT whose answer was 412 or 409: it may still have landed (lost answer, retry). */
  private record Attempt<T>(String nonce, T outcome, boolean applies) {}

  @Override
  public RegisterOutcome register(FencingToken token) {
    requireNonNull(token, "token is null");
    String action = "register epoch " + token.epoch() + " of " + token.resource() + " at " + name;
    trust(token, action);
    return steps.register(token, action);
  }

  @Override
  public WriteOutcome write(
      FencingToken token, OperationId operation, Pointer change, RequestFingerprint fingerprint) {
    requireNonNull(token, "token is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(change, "change is null");
    requireNonNull(fingerprint, "fingerprint is null");
    String action = "write operation " + operation + " of " + token.resource() + " to " + name;
    trust(token, action);
    return steps.write(token, operation, change, fingerprint, action);
  }

  /** The control object and the immutable objects, as {@link CasPointerSteps} needs them. */
  private final class ControlObjects implements CasPointerSteps.Store<ControlRead> {

    @Override
    public ControlRead read(ResourceId resource, String action) {
      return readControl(resource);
    }

    @Override
    public CasPointerSteps.Stored operationRecord(
        ResourceId resource, OperationId operation, String action) {
      return record(PointerKeys.operation(name, resource, operation));
    }

    @Override
    public CasPointerSteps.Stored versionRecord(ResourceId resource, long version, String action) {
      return record(PointerKeys.version(name, resource, version));
    }

    private CasPointerSteps.Stored record(String relativeKey) {
      String key = location.objectKey(relativeKey);
      return new CasPointerSteps.Stored(stored(location.describe(key)), get(location, key));
    }

    /** Stores the entry about to be replaced as its immutable operation and version objects. */
    @Override
    public boolean beforeReplacing(ResourceId resource, Entry current) {
      return materialize(resource, current);
    }

    /** One conditional PUT of the control object. */
    @Override
    public boolean replace(
        ControlRead read, ControlDocument next, Optional<Entry> applied, String action) {
      return replaceKnowing(read, next, applied, action).accepted();
    }

    /** {@link #replace}; the PUT's answer gives the control object's new ETag. */
    @Override
    public CasPointerSteps.Replacement<ControlRead> replaceKnowing(
        ControlRead read, ControlDocument next, Optional<Entry> applied, String action) {
      String[] etag = new String[1];
      if (putControl(read, next, action, read.resource(), etag) != Put.WRITTEN) {
        return CasPointerSteps.Replacement.refused();
      }
      return CasPointerSteps.Replacement.accepted(
          etag[0] == null || etag[0].isBlank()
              ? null
              : new ControlRead(read.resource(), next, etag[0]));
    }
  }

  @Override
  public Optional<Receipt> lookup(ResourceId resource, OperationId operation) {
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    // The control object first, then the operation object: an operation that is not current in
    // the control object read at time t either was never applied by t, or was replaced before t,
    // and then its operation object was created before t (objects are created before the control
    // object moves past them), so the later GET finds it. In the other order an operation that is
    // current when the object GET answers 404 and replaced before the control GET would be
    // missed although it was applied before the lookup began.
    ControlDocument control = readControl(resource).control();
    return steps
        .recorded(resource, control, operation, "look up operation " + operation)
        .map(entry -> entry.receipt(name, resource));
  }

  @Override
  public Epoch currentEpoch(ResourceId resource) {
    requireNonNull(resource, "resource is null");
    return readControl(resource).control().epoch();
  }

  @Override
  public Optional<PointerState> current(ResourceId resource) {
    return history(resource, 1).stream().findFirst();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Costs one GET of the control object and one GET per older version returned.
   */
  @Override
  public List<PointerState> history(ResourceId resource, int limit) {
    CasPointerSteps.requireLimit(resource, limit);
    return steps.history(
        resource, readControl(resource).control(), limit, "read the history of " + resource);
  }

  @Override
  public Epoch resetRegisteredEpoch(ResourceId resource, Epoch epoch, String reason) {
    requireNonNull(resource, "resource is null");
    requireNonNull(epoch, "epoch is null");
    FencingToken.validateHolder(reason);
    String action = "reset the registered epoch of " + resource + " to " + epoch;
    Attempt<Epoch> attempt = null;
    ControlRead refused = null;
    Epoch previous;
    while (true) {
      ControlRead read = readControl(resource);
      CasPointerSteps.Landed landed =
          attempt == null
              ? CasPointerSteps.Landed.NO
              : CasPointerSteps.landed(attempt.nonce(), refused.control(), read.control());
      if (landed == CasPointerSteps.Landed.YES) {
        previous = attempt.outcome();
        break;
      }
      if (landed == CasPointerSteps.Landed.UNKNOWN) {
        // The nonce may have left the recent writes: applying the reset again could move the
        // epoch back below epochs registered after it landed.
        throw new StoreException(
            "Cannot "
                + action
                + ": an earlier attempt whose answer was lost may have been applied, and "
                + ControlDocument.RECENT_WRITES
                + " or more writes followed it (read the current epoch before resetting again)",
            null,
            true);
      }
      String nonce = CasPointerSteps.nonce();
      Put put =
          putControl(
              read, read.control().registered(epoch, null, nonce), action, resource, new String[1]);
      if (put == Put.WRITTEN) {
        previous = read.control().epoch();
        break;
      }
      // Refused on its only attempt, nothing of it landed; after a retry, the next read decides.
      attempt =
          put == Put.REFUSED_AFTER_RETRY
              ? new Attempt<>(nonce, read.control().epoch(), false)
              : null;
      refused = read;
    }
    System.getLogger(S3PointerStore.class.getName())
        .log(
            System.Logger.Level.WARNING,
            "Reset the registered epoch of "
                + resource
                + " at "
                + location.describe()
                + " from "
                + previous
                + " to "
                + epoch
                + ": "
                + reason);
    return previous;
  }

  /**
   * Stores a committed entry that is about to be replaced as its immutable operation and version
   * objects (create-only; an existing object holds the same bytes).
   *
   * @return false if the endpoint answered 409 (a concurrent create in progress): read again
   */
  private boolean materialize(ResourceId resource, Entry entry) {
    byte[] json = entry.toStoredJson(name, resource);
    return createOnce(PointerKeys.operation(name, resource, entry.operation()), json)
        && createOnce(PointerKeys.version(name, resource, entry.version()), json);
  }

  private boolean createOnce(String relativeKey, byte[] json) {
    String key = location.objectKey(relativeKey);
    try {
      putJson(location, key, json, null);
      return true;
    } catch (SdkException e) {
      if (e instanceof S3Exception s3 && s3.statusCode() == S3Location.PRECONDITION_FAILED) {
        return true; // stored before, from the same committed entry
      }
      if (e instanceof S3Exception s3 && s3.statusCode() == S3Location.CONFLICT) {
        return false;
      }
      // Nothing was committed: the control object has not moved.
      throw location.failure("store pointer object " + location.describe(key), e, false);
    }
  }

  /** The control object as read, with the ETag to swap against (null: the object is absent). */
  private record ControlRead(ResourceId resource, ControlDocument control, String etag)
      implements CasPointerSteps.Read {}

  private ControlRead readControl(ResourceId resource) {
    String key = location.objectKey(PointerKeys.control(resource));
    ResponseBytes<GetObjectResponse> bytes;
    try {
      bytes = location.client().getObjectAsBytes(b -> b.bucket(location.bucket()).key(key));
    } catch (NoSuchKeyException e) {
      return new ControlRead(resource, ControlDocument.EMPTY, null);
    } catch (SdkException e) {
      throw location.failure("read control object " + location.describe(key), e, false);
    }
    String etag = bytes.response().eTag();
    if (etag == null || etag.isBlank()) {
      throw new StoreException(
          "Cannot read control object "
              + location.describe(key)
              + ": the endpoint sent no ETag (an endpoint without ETags cannot fence; use a JDBC"
              + " pointer store)",
          null,
          false);
    }
    return new ControlRead(
        resource, ControlDocument.parse(bytes.asByteArray(), stored(location.describe(key))), etag);
  }

  /** How a conditional PUT of the control object ended. */
  private enum Put {
    WRITTEN,
    /** Refused (412 or 409) on the only attempt: nothing was written. */
    REFUSED,
    /** Refused after the SDK sent it more than once: an earlier attempt may have landed. */
    REFUSED_AFTER_RETRY
  }

  /**
   * Swaps the control object against the version {@code read}: {@code If-Match} its ETag, or {@code
   * If-None-Match: *} if it was absent.
   *
   * @param etag receives the ETag the endpoint answered a written object with (or null)
   * @return whether it was written, or refused because another step committed since the read (412
   *     or 409), possibly after an earlier attempt landed
   * @throws StoreException if the request failed otherwise; the outcome is unknown if an attempt
   *     may have landed
   */
  private Put putControl(
      ControlRead read, ControlDocument next, String action, ResourceId resource, String[] etag) {
    String key = location.objectKey(PointerKeys.control(resource));
    try {
      etag[0] = putJson(location, key, next.toJson(), read.etag());
      return Put.WRITTEN;
    } catch (SdkException e) {
      if (S3Location.preconditionFailed(e)) {
        Integer attempts = e.numAttempts();
        return attempts != null && attempts > 1 ? Put.REFUSED_AFTER_RETRY : Put.REFUSED;
      }
      StoreException failure =
          location.failure(action + " (" + location.describe(key) + ")", e, true);
      Integer attempts = e.numAttempts();
      if (failure.outcomeUnknown() || attempts == null || attempts <= 1) {
        throw failure;
      }
      // An earlier attempt may have landed and lost its answer before the last one failed.
      throw new StoreException(
          failure.getMessage()
              + "; "
              + attempts
              + " attempts were sent and an earlier one may have been applied (look the operation"
              + " up or retry with the same operation ID)",
          e,
          true);
    }
  }

  /**
   * A conditional PUT of a JSON object: {@code If-Match: etag}, or create-only ({@code
   * If-None-Match: *}) if {@code etag} is null. Never unconditional.
   *
   * @return the ETag the endpoint answered with, or null
   */
  private static String putJson(S3Location location, String key, byte[] json, String etag) {
    PutObjectRequest.Builder request =
        PutObjectRequest.builder()
            .bucket(location.bucket())
            .key(key)
            .contentType("application/json");
    if (etag == null) {
      request.ifNoneMatch("*");
    } else {
      request.ifMatch(etag);
    }
    return location.client().putObject(request.build(), RequestBody.fromBytes(json)).eTag();
  }

  private static Optional<byte[]> get(S3Location location, String key) {
    try {
      return Optional.of(
          location
              .client()
              .getObjectAsBytes(b -> b.bucket(location.bucket()).key(key))
              .asByteArray());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw location.failure("read pointer object " + location.describe(key), e, false);
    }
  }

  private void trust(FencingToken token, String action) {
    if (keys != null) {
      keys.verify(token, action);
    }
  }

  /** Where a pointer object is, for the error if it cannot be read. */
  static StrictJson.Where stored(String shown) {
    return new StrictJson.Where(
        "pointer object", shown, "restore it from a backup or its object versions");
  }

  @Override
  public String toString() {
    return "S3PointerStore[" + name + " at " + location.describe() + "]";
  }
}
