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

import dev.fenceline.spi.BlobInfo;
import dev.fenceline.spi.BlobKey;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.PointerStore;
import dev.fenceline.spi.StoreException;
import dev.fenceline.spi.SupportsPointerStoreRecord;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * A {@link BlobStore} on an S3 bucket, under the {@link S3Store}'s key prefix: blob key {@code
 * reports/a.csv} is object {@code <prefix>/reports/a.csv}. Works on any S3-compatible endpoint; it
 * fences nothing itself (use it with a pointer store in a {@code StagedDestination}).
 *
 * <p><b>put</b> streams with bounded memory and no temporary files. Up to {@link
 * S3Store.Builder#multipartThreshold the multipart threshold} bytes are buffered (the buffer grows
 * with the payload, so a small payload costs a small buffer); a payload that ends before the
 * threshold is sent with one {@code PutObject}. A payload of the threshold or more is sent as a
 * multipart upload, one part of {@link S3Store.Builder#partSize the part size} buffered at a time,
 * so memory stays at about the threshold whatever the payload's size. Requests: one for a payload
 * below the threshold; {@code 2 + ceil(size / partSize)} above it. If anything fails (the payload
 * stream, a part, the completion), the multipart upload is aborted (best effort: a failed abort is
 * logged; a bucket lifecycle rule {@code AbortIncompleteMultipartUpload} removes what is left) and
 * no object is created.
 *
 * <p><b>put never overwrites</b> where the endpoint honours conditional writes: the {@code
 * PutObject} and the {@code CompleteMultipartUpload} carry {@code If-None-Match: *}, so a put on an
 * existing key fails with "already exists" and leaves the existing object unchanged. On an endpoint
 * that ignores the condition (S3Proxy 2.x, some S3-compatible stores, see {@link
 * S3Store#conditionalWrites()}) a put on an existing key <em>replaces</em> the object. No extra
 * request is spent to check first: such a check would race anyway, and staged publishing never
 * reuses a key (its staging keys carry 96 random bits).
 *
 * <p>If the answer to the creating request is lost (no answer, the SDK's retries exhausted), the
 * object may exist: the exception says the outcome is unknown; a staged blob left so is removed by
 * the staging sweep once its epoch is superseded.
 *
 * <p><b>delete</b> is a {@code HeadObject} then a {@code DeleteObject}, because S3 does not say
 * whether a delete removed anything. Two concurrent deletes of one key may both report {@code
 * true}; since a key is never written again after its put, nothing else can slip in between.
 *
 * <p><b>stat</b> cannot tell a missing bucket from a missing key ({@code HeadObject} answers 404
 * without a body for both); {@code open}, {@code put} and {@code list} name a missing bucket.
 *
 * <p><b>One pointer store per destination</b> ({@link SupportsPointerStoreRecord}): {@link
 * #recordPointerStore} records under the prefix which pointer store publishes each destination name
 * staged here, and refuses another one (see {@link PointerStoreRecords} for the object and what it
 * relies on). The prefix's own {@link S3PointerStore} records itself when {@link
 * S3Store#pointerStore} opens it; a destination staged here with another pointer store (a JDBC one)
 * records it with this method before its first publish, in every process.
 *
 * <p>Thread-safe. It uses the {@link S3Store}'s client and is closed with the store.
 */
public final class S3BlobStore implements BlobStore, SupportsPointerStoreRecord {

  private static final System.Logger LOG = System.getLogger(S3BlobStore.class.getName());

  /** First size of the buffer that decides between one PUT and a multipart upload. */
  private static final int INITIAL_BUFFER = 64 * 1024;

  private final S3Location location;
  private final long multipartThreshold;
  private final int partSize;
  private final int initialBuffer;
  private final PointerStoreRecords records;

  S3BlobStore(S3Location location, long multipartThreshold, int partSize) {
    this.location = requireNonNull(location, "location is null");
    if (partSize < 1 || multipartThreshold < partSize || multipartThreshold > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "Cannot create an S3 blob store with part size "
              + partSize
              + " and multipart threshold "
              + multipartThreshold
              + ": the part size must be positive and at most the threshold, and the threshold at"
              + " most 2 GiB (build it with S3Store.builder, which checks both)");
    }
    this.multipartThreshold = multipartThreshold;
    this.partSize = partSize;
    this.initialBuffer = (int) Math.min(INITIAL_BUFFER, multipartThreshold);
    this.records = new PointerStoreRecords(location);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Costs one {@code GET} of the record, plus a create-only {@code PUT} and a second {@code GET}
   * when it does not exist yet; once per name and process after that.
   */
  @Override
  public void recordPointerStore(PointerStore pointers) {
    requireNonNull(pointers, "pointers is null");
    records.record(pointers.name(), pointers.storeId());
  }

  /** {@code s3://bucket/prefix at endpoint}, as shown in messages. */
  public String location() {
    return location.describe();
  }

  /**
   * Streams {@code content} to a new object (see the class comment for requests and memory).
   *
   * @return the key, the number of bytes stored, and the store's time of its answer (its {@code
   *     Date} header; one second precision, like S3's modification times)
   * @throws StoreException if an object exists at the key (on endpoints that honour {@code
   *     If-None-Match}), the payload stream failed, or the store failed; the message names the
   *     object and the cause
   */
  @Override
  public BlobInfo put(BlobKey key, InputStream content) {
    requireNonNull(key, "key is null");
    requireNonNull(content, "content is null");
    String objectKey = location.objectKey(key);
    byte[] buffer = new byte[initialBuffer];
    int filled = 0;
    try {
      while (true) {
        if (filled == buffer.length) {
          if (filled >= multipartThreshold) {
            return putInParts(key, objectKey, content, buffer, filled);
          }
          buffer = Arrays.copyOf(buffer, (int) Math.min(2L * filled, multipartThreshold));
        }
        int read = readPayload(content, buffer, filled, buffer.length - filled);
        if (read < 0) {
          return putWhole(key, objectKey, buffer, filled);
        }
        filled += read;
      }
    } catch (PayloadFailure failure) {
      throw payloadFailed(objectKey, failure.getCause());
    }
  }

  private BlobInfo putWhole(BlobKey key, String objectKey, byte[] buffer, int length) {
    PutObjectRequest request =
        PutObjectRequest.builder()
            .bucket(location.bucket())
            .key(objectKey)
            .contentLength((long) length)
            .ifNoneMatch("*")
            .build();
    SdkHttpResponse answer;
    try {
      answer = location.client().putObject(request, body(buffer, 0, length)).sdkHttpResponse();
    } catch (SdkException e) {
      throw putFailed(objectKey, e);
    }
    return info(key, objectKey, length, answer);
  }

  /**
   * A multipart upload of {@code buffer[0, filled)} followed by the rest of {@code content}; the
   * buffer is reused for every part.
   */
  private BlobInfo putInParts(
      BlobKey key, String objectKey, InputStream content, byte[] buffer, int filled)
      throws PayloadFailure {
    String uploadId;
    try {
      uploadId =
          location
              .client()
              .createMultipartUpload(b -> b.bucket(location.bucket()).key(objectKey))
              .uploadId();
    } catch (SdkException e) {
      throw location.failure(
          "start the multipart upload of " + location.describe(objectKey), e, false);
    }
    List<CompletedPart> parts = new ArrayList<>();
    long size = 0;
    try {
      int start = 0;
      boolean ended = false;
      while (true) {
        if (filled - start < partSize && !ended) {
          System.arraycopy(buffer, start, buffer, 0, filled - start);
          filled -= start;
          start = 0;
          while (filled < partSize) {
            int read = readPayload(content, buffer, filled, partSize - filled);
            if (read < 0) {
              ended = true;
              break;
            }
            filled += read;
          }
        }
        int length = Math.min(filled - start, partSize);
        if (length == 0) {
          break; // the payload ended on a part boundary
        }
        parts.add(uploadPart(objectKey, uploadId, parts.size() + 1, buffer, start, length));
        start += length;
        size += length;
        if (ended && start == filled) {
          break;
        }
      }
      SdkHttpResponse answer;
      try {
        answer =
            location
                .client()
                .completeMultipartUpload(
                    b ->
                        b.bucket(location.bucket())
                            .key(objectKey)
                            .uploadId(uploadId)
                            .ifNoneMatch("*")
                            .multipartUpload(m -> m.parts(parts)))
                .sdkHttpResponse();
      } catch (SdkException e) {
        throw putFailed(objectKey, e);
      }
      return info(key, objectKey, size, answer);
    } catch (PayloadFailure failure) {
      StoreException failed = payloadFailed(objectKey, failure.getCause());
      abort(objectKey, uploadId, failed);
      throw failed;
    } catch (RuntimeException e) {
      abort(objectKey, uploadId, e);
      throw e;
    }
  }

  private CompletedPart uploadPart(
      String objectKey, String uploadId, int number, byte[] buffer, int offset, int length) {
    UploadPartRequest request =
        UploadPartRequest.builder()
            .bucket(location.bucket())
            .key(objectKey)
            .uploadId(uploadId)
            .partNumber(number)
            .contentLength((long) length)
            .build();
    try {
      String eTag = location.client().uploadPart(request, body(buffer, offset, length)).eTag();
      return CompletedPart.builder().partNumber(number).eTag(eTag).build();
    } catch (SdkException e) {
      throw location.failure(
          "put " + location.describe(objectKey) + ": uploading part " + number, e, false);
    }
  }

  /** Aborts the upload; a failure is logged and attached to {@code cause}, never thrown. */
  private void abort(String objectKey, String uploadId, Exception cause) {
    try {
      location
          .client()
          .abortMultipartUpload(b -> b.bucket(location.bucket()).key(objectKey).uploadId(uploadId));
    } catch (SdkException e) {
      cause.addSuppressed(e);
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot abort multipart upload "
              + uploadId
              + " of "
              + location.describe(objectKey)
              + ": "
              + e.getMessage()
              + " (its parts stay stored until a lifecycle rule AbortIncompleteMultipartUpload"
              + " removes them)");
    }
  }

  /** The bytes are sent without a copy; a retry of the request reads them again. */
  private static RequestBody body(byte[] buffer, int offset, int length) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(buffer, offset, length), length, "application/octet-stream");
  }

  /** Reads from the caller's payload; its failures are told apart from the store's. */
  private static int readPayload(InputStream content, byte[] buffer, int offset, int length)
      throws PayloadFailure {
    try {
      return content.read(buffer, offset, length);
    } catch (IOException | RuntimeException e) {
      throw new PayloadFailure(e);
    }
  }

  private StoreException payloadFailed(String objectKey, Throwable cause) {
    return new StoreException(
        "Cannot put "
            + location.describe(objectKey)
            + ": reading the payload failed: "
            + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage())
            + " (nothing was left at the key; the producer of the payload failed, not the store)",
        cause);
  }

  /**
   * The failure of the request that creates the object ({@code PutObject} or the completion), both
   * sent with {@code If-None-Match: *}: a failed condition ({@link S3Location#preconditionFailed}:
   * 412, or S3Mock's 304 on a completion) means an object exists. If the SDK sent the request more
   * than once, that object may be this put's own first attempt, whose answer was lost: the outcome
   * is then reported unknown rather than as somebody else's object.
   */
  private StoreException putFailed(String objectKey, SdkException e) {
    if (S3Location.preconditionFailed(e)) {
      Integer attempts = e.numAttempts();
      if (attempts != null && attempts > 1) {
        return new StoreException(
            "Cannot put "
                + location.describe(objectKey)
                + ": the endpoint answered "
                + attempts
                + " attempts, the last with \"already exists\"; an earlier attempt whose answer was"
                + " lost may have stored it (a staged blob left there is removed by the sweep)",
            e,
            true);
      }
      return new StoreException(
          "Cannot put "
              + location.describe(objectKey)
              + ": an object already exists at that key (blobs are never replaced; staging keys"
              + " are never reused, so use a new key)",
          e);
    }
    return location.failure("put " + location.describe(objectKey), e, true);
  }

  /** Facts of a new object from its answer; a {@code HEAD} only if the answer has no date. */
  private BlobInfo info(BlobKey key, String objectKey, long size, SdkHttpResponse answer) {
    Optional<Instant> date =
        answer
            .firstMatchingHeader("Date")
            .flatMap(
                value -> {
                  try {
                    return Optional.of(
                        ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant());
                  } catch (DateTimeParseException e) {
                    return Optional.empty();
                  }
                });
    if (date.isPresent()) {
      return new BlobInfo(key, size, date.get());
    }
    return stat(key)
        .orElseThrow(
            () ->
                new StoreException(
                    "Cannot put "
                        + location.describe(objectKey)
                        + ": the endpoint accepted the object but it is not there (check that"
                        + " nothing else deletes below "
                        + location.describe()
                        + ")",
                    null,
                    true));
  }

  /**
   * Opens the object for streaming ({@code GetObject}); nothing is buffered. Closing the stream
   * before its end drops the connection rather than reading the rest.
   *
   * @throws StoreException if there is no object at the key, or the store failed
   */
  @Override
  public InputStream open(BlobKey key) {
    requireNonNull(key, "key is null");
    String objectKey = location.objectKey(key);
    try {
      return new AbortingOnEarlyClose(
          location.client().getObject(b -> b.bucket(location.bucket()).key(objectKey)));
    } catch (SdkException e) {
      if (S3Location.notFound(e) && !noSuchBucket(e)) {
        throw new StoreException(
            "Cannot open "
                + location.describe(objectKey)
                + ": there is no blob at that key (it was never put, or was deleted)",
            e);
      }
      throw location.failure("open " + location.describe(objectKey), e, false);
    }
  }

  /**
   * Reads the object's size and modification time ({@code HeadObject}).
   *
   * @return the facts, or empty if the endpoint answers 404 (no such key, or no such bucket)
   */
  @Override
  public Optional<BlobInfo> stat(BlobKey key) {
    requireNonNull(key, "key is null");
    String objectKey = location.objectKey(key);
    try {
      HeadObjectResponse head =
          location.client().headObject(b -> b.bucket(location.bucket()).key(objectKey));
      return Optional.of(new BlobInfo(key, head.contentLength(), head.lastModified()));
    } catch (SdkException e) {
      if (S3Location.notFound(e)) {
        return Optional.empty();
      }
      throw location.failure("stat " + location.describe(objectKey), e, false);
    }
  }

  /**
   * Deletes the object: a {@code HeadObject} to learn whether there is one, then a {@code
   * DeleteObject} (see the class comment on concurrent deletes).
   */
  @Override
  public boolean delete(BlobKey key) {
    requireNonNull(key, "key is null");
    if (stat(key).isEmpty()) {
      return false;
    }
    String objectKey = location.objectKey(key);
    try {
      location.client().deleteObject(b -> b.bucket(location.bucket()).key(objectKey));
      return true;
    } catch (SdkException e) {
      throw location.failure("delete " + location.describe(objectKey), e, false);
    }
  }

  /**
   * Lists the objects below {@code prefix/} ({@code ListObjectsV2}, 1,000 keys a page, each page
   * requested when the stream gets to it). Keys that no blob key can have (directory markers ending
   * in {@code /}, characters outside {@code [A-Za-z0-9._/-]}) were not written by this store and
   * are skipped.
   *
   * @throws StoreException if a page cannot be read, also while the stream is consumed
   */
  @Override
  public Stream<BlobInfo> list(BlobKey prefix) {
    requireNonNull(prefix, "prefix is null");
    String objectPrefix = location.objectKey(prefix) + "/";
    String action = "list " + location.describe(objectPrefix);
    Iterator<S3Object> objects;
    try {
      objects =
          location
              .client()
              .listObjectsV2Paginator(b -> b.bucket(location.bucket()).prefix(objectPrefix))
              .contents()
              .iterator();
    } catch (SdkException e) {
      throw location.failure(action, e, false);
    }
    Iterator<S3Object> failingClearly =
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            try {
              return objects.hasNext();
            } catch (SdkException e) {
              throw location.failure(action, e, false);
            }
          }

          @Override
          public S3Object next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return objects.next();
          }
        };
    int strip = location.prefix().isEmpty() ? 0 : location.prefix().length() + 1;
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(
                failingClearly, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .flatMap(object -> blob(object, strip).stream());
  }

  private Optional<BlobInfo> blob(S3Object object, int strip) {
    String name = object.key().substring(strip);
    try {
      return Optional.of(new BlobInfo(BlobKey.of(name), object.size(), object.lastModified()));
    } catch (IllegalArgumentException notAKey) {
      LOG.log(
          System.Logger.Level.DEBUG,
          "Skipping " + location.describe(object.key()) + ": " + notAKey.getMessage());
      return Optional.empty();
    }
  }

  private static boolean noSuchBucket(SdkException e) {
    return e instanceof S3Exception s3
        && s3.awsErrorDetails() != null
        && "NoSuchBucket".equals(s3.awsErrorDetails().errorCode());
  }

  /** The payload stream failed; carries its exception as the cause. */
  private static final class PayloadFailure extends Exception {
    private static final long serialVersionUID = 1L;

    PayloadFailure(Throwable cause) {
      super(cause);
    }
  }

  /**
   * Drops the connection when closed before the end, instead of reading the rest of a possibly
   * large object just to reuse the connection.
   */
  private static final class AbortingOnEarlyClose extends FilterInputStream {
    private final ResponseInputStream<GetObjectResponse> response;
    private boolean ended;

    AbortingOnEarlyClose(ResponseInputStream<GetObjectResponse> response) {
      super(response);
      this.response = response;
    }

    @Override
    public int read() throws IOException {
      int read = super.read();
      ended |= read < 0;
      return read;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int read = super.read(buffer, offset, length);
      ended |= read < 0;
      return read;
    }

    @Override
    public void close() throws IOException {
      if (!ended) {
        response.abort();
      }
      super.close();
    }
  }
}
