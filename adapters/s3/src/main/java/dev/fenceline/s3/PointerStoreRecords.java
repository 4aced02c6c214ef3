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

import dev.fenceline.cas.StrictJson;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import dev.fenceline.spi.StoreException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which pointer store publishes each destination staged under one bucket and prefix: object {@code
 * .fenceline/pointer-stores/<name>.json} under the prefix holds {@code {"format":1,"name":
 * "<name>","pointer-store":"<store id>"}} ({@link dev.fenceline.spi.PointerStore#storeId()}: {@code
 * s3-...} for this prefix's own {@link S3PointerStore}, {@code jdbc-...} for a database's).
 *
 * <p>Every process reads the record before it publishes through a pointer store and, if there is
 * none, creates it with a create-only {@code PUT} ({@code If-None-Match: *}) and reads it back. A
 * record is never replaced by Fenceline, so the first pointer store recorded for a name stays.
 *
 * <p>What it relies on, and why that suffices: two processes can both create a first record only if
 * their create-only {@code PUT}s overlap on an endpoint that does not apply {@code If-None-Match}
 * atomically. Choosing this prefix's S3 pointer store needs an endpoint that passed the
 * conditional-write probe, whose sequential checks an endpoint that ignores the condition always
 * fails, and the S3 pointer store needs atomic conditional writes anyway: on an endpoint where it
 * is safe at all, exactly one record can be created. Where the probe fails, no process can choose
 * the S3 pointer store by itself (the configuration requires naming the pointer store then), and
 * reading first means a record is overwritten only by a process that started within the same moment
 * as the first one.
 */
final class PointerStoreRecords {

  /** Where the records live, under the prefix. */
  static final String AREA = ".fenceline/pointer-stores";

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int MAX_ATTEMPTS = 10;

  private final S3Location location;
  private final ConcurrentMap<String, String> confirmed = new ConcurrentHashMap<>();

  PointerStoreRecords(S3Location location) {
    this.location = requireNonNull(location, "location is null");
  }

  /** The relative key of {@code name}'s record. */
  static String key(String name) {
    return AREA + "/" + Destination.validateName(name) + ".json";
  }

  /**
   * Records {@code storeId} as the pointer store of destination {@code name}, or checks it against
   * the record. A confirmed record is remembered: Fenceline never changes one.
   *
   * @throws ConfigurationException if another pointer store is recorded
   * @throws StoreException if the record cannot be read or written
   */
  void record(String name, String storeId) {
    requireNonNull(storeId, "storeId is null");
    if (storeId.equals(confirmed.get(name))) {
      return;
    }
    String key = location.objectKey(key(name));
    String shown = location.describe(key);
    for (int attempt = 1; ; attempt++) {
      Optional<String> recorded = read(key, shown);
      if (recorded.isPresent()) {
        if (!recorded.get().equals(storeId)) {
          throw conflict(name, storeId, recorded.get(), shown);
        }
        confirmed.put(name, storeId);
        return;
      }
      if (attempt > MAX_ATTEMPTS) {
        throw new StoreException(
            "Cannot record the pointer store of destination \""
                + name
                + "\" in "
                + shown
                + ": it was created and then missing "
                + MAX_ATTEMPTS
                + " times (something deletes it; never delete it while processes publish)",
            null,
            false);
      }
      try {
        byte[] json =
            JSON.writeValueAsBytes(
                JSON.createObjectNode()
                    .put("format", StrictJson.FORMAT)
                    .put("name", name)
                    .put("pointer-store", storeId));
        location
            .client()
            .putObject(
                PutObjectRequest.builder()
                    .bucket(location.bucket())
                    .key(key)
                    .contentType("application/json")
                    .ifNoneMatch("*")
                    .build(),
                RequestBody.fromBytes(json));
        // Read back next: what is recorded decides, whoever created it.
      } catch (SdkException e) {
        // 412: another process (or our own lost first attempt) created it; 409: in progress.
        if (!S3Location.preconditionFailed(e)) {
          throw location.failure(
              "record the pointer store of destination \"" + name + "\" in " + shown, e, false);
        }
      }
    }
  }

  private Optional<String> read(String key, String shown) {
    byte[] data;
    try {
      data =
          location
              .client()
              .getObjectAsBytes(b -> b.bucket(location.bucket()).key(key))
              .asByteArray();
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw location.failure("read the pointer store record " + shown, e, false);
    }
    try {
      JsonNode root = JSON.readTree(data);
      JsonNode format = root == null ? null : root.get("format");
      JsonNode store = root == null ? null : root.get("pointer-store");
      if (format != null
          && format.isIntegralNumber()
          && format.asLong() == StrictJson.FORMAT
          && store != null
          && store.isString()
          && !store.stringValue().isBlank()) {
        return Optional.of(store.stringValue());
      }
    } catch (JacksonException e) {
      // Reported below, as any other unreadable record.
    }
    throw new StoreException(
        "Cannot read the pointer store record "
            + shown
            + ": expected {\"format\":"
            + StrictJson.FORMAT
            + ",\"name\":\"<destination>\",\"pointer-store\":\"<store id>\"} (restore it; it names"
            + " the one pointer store every process publishes this destination through)",
        null,
        false);
  }

  private ConfigurationException conflict(
      String name, String storeId, String recorded, String shown) {
    return new ConfigurationException(
        "Cannot publish destination \""
            + name
            + "\" through pointer store "
            + storeId
            + ": "
            + shown
            + " records pointer store "
            + recorded
            + " for it, and two pointer stores for one destination fence nothing against each"
            + " other (publish through "
            + recorded
            + " as the other processes do, e.g. set pointer-store: to the store whose ID it is;"
            + " delete the record only once no process publishes through "
            + recorded
            + ")");
  }
}
