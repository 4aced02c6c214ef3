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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Checks on a fresh probe key under the store's prefix that the endpoint honours conditional
 * writes, the way a pointer store relies on them:
 *
 * <ol>
 *   <li>a create-only PUT ({@code If-None-Match: *}) of a new key succeeds;
 *   <li>a create-only PUT on the now existing key fails with 412;
 *   <li>a PUT with {@code If-Match} and a wrong ETag fails with 412;
 *   <li>a PUT with {@code If-Match} and the right ETag succeeds and the object gets a new ETag;
 *   <li>the object holds what the last successful PUT wrote (the refused ones changed nothing);
 *   <li>concurrent conditional PUTs on one key: in each of {@value #RACE_ROUNDS} rounds, {@value
 *       #RACE_THREADS} threads released at once by a barrier send create-only PUTs of one fresh
 *       key, then {@value #RACE_THREADS} threads send PUTs with the same {@code If-Match} ETag on
 *       it. At most one PUT of each burst may be accepted; more than one means the endpoint checks
 *       the condition and writes in separate steps (S3Mock 4.8 and S3Proxy 4.1.0 do), so two
 *       writers could both swap a pointer.
 * </ol>
 *
 * <p>The concurrency check is best effort: it can prove that an endpoint checks and writes
 * non-atomically, never that it is atomic. A pass means no race was seen in these rounds, not that
 * none can happen; AWS S3 documents its conditional writes as atomic.
 *
 * <p>Every key the probe wrote is deleted afterwards (best effort). On an endpoint that passes, the
 * probe costs {@value #SEQUENTIAL_REQUESTS} sequential requests plus {@code 2 * RACE_THREADS + 1}
 * requests per round: {@value #REQUESTS} in all, sent once per {@link S3Store}.
 */
final class ConditionalWriteProbe {

  static final String PROBE_AREA = ".fenceline/probe";

  /** Marks the keys of the concurrency check: {@code <probe key>.race-<round>}. */
  static final String RACE_KEY_MARK = ".race-";

  /** Rounds of the concurrency check. */
  static final int RACE_ROUNDS = 5;

  /** Concurrent PUTs per burst of the concurrency check. */
  static final int RACE_THREADS = 2;

  /** Requests of the five sequential checks, the deletion of the probe key included. */
  static final int SEQUENTIAL_REQUESTS = 6;

  /** Requests of a probe that passes. */
  static final int REQUESTS = SEQUENTIAL_REQUESTS + RACE_ROUNDS * (2 * RACE_THREADS + 1);

  /**
   * Size of each PUT of the concurrency check: 256 KiB, long enough to upload that racing PUTs
   * overlap on the server (with 16-byte bodies S3Proxy 4.1.0 showed the race in 27 of 30 runs of 8
   * rounds, with 256 KiB in 30 of 30 runs of 4 rounds).
   */
  static final int RACE_BODY_BYTES = 256 * 1024;

  private static final String RACE_CHECK = "concurrent conditional PUTs on one key";

  /** Longest wait for one burst of concurrent PUTs (each request has its own timeouts too). */
  private static final long BURST_TIMEOUT_SECONDS = 600;

  private ConditionalWriteProbe() {}

  static ConditionalWrites run(S3Location location) {
    String key = location.objectKey(PROBE_AREA + "/" + UUID.randomUUID());
    List<String> passed = new ArrayList<>();
    try {
      String created;
      String check = "create-only PUT (If-None-Match: *) of a new key";
      try {
        created = put(location, key, "probe 1", null, "*").eTag();
      } catch (SdkException e) {
        return failed(location, passed, check, answerOrThrow(location, key, e) + ", expected 200");
      }
      passed.add(check);

      check = "create-only PUT (If-None-Match: *) on an existing key";
      Optional<String> refused = expectRefused(location, key, "probe 2", null, "*");
      if (refused.isPresent()) {
        return failed(location, passed, check, refused.get());
      }
      passed.add(check);

      check = "PUT with If-Match and a wrong ETag";
      refused = expectRefused(location, key, "probe 3", "\"fenceline-wrong-etag\"", null);
      if (refused.isPresent()) {
        return failed(location, passed, check, refused.get());
      }
      passed.add(check);

      check = "PUT with If-Match and the current ETag";
      String replaced;
      try {
        replaced = put(location, key, "probe 4", created, null).eTag();
      } catch (SdkException e) {
        return failed(location, passed, check, answerOrThrow(location, key, e) + ", expected 200");
      }
      if (replaced == null || replaced.equals(created)) {
        return failed(
            location,
            passed,
            check,
            "the object kept ETag " + created + " after it was overwritten, expected a new one");
      }
      passed.add(check);

      check = "the refused PUTs changed nothing";
      String stored;
      try {
        stored =
            location
                .client()
                .getObjectAsBytes(b -> b.bucket(location.bucket()).key(key))
                .asString(StandardCharsets.UTF_8);
      } catch (SdkException e) {
        throw location.failure("read probe key " + location.describe(key), e, false);
      }
      if (!stored.equals("probe 4")) {
        return failed(
            location,
            passed,
            check,
            "the object holds \"" + stored + "\" instead of \"probe 4\" after refused PUTs");
      }
      passed.add(check);

      Optional<String> race = race(location, key, RACE_ROUNDS, RACE_THREADS);
      if (race.isPresent()) {
        return failed(location, passed, RACE_CHECK, race.get());
      }
      passed.add(RACE_CHECK);
      return new ConditionalWrites(location.describe(), passed, Optional.empty());
    } finally {
      delete(location, key);
    }
  }

  /**
   * The concurrency check: {@code rounds} rounds of two bursts of {@code threads} conditional PUTs
   * on a fresh key {@code <key>.race-<round>}. Empty if no burst had more than one PUT accepted,
   * else what happened. Deletes the keys it wrote (best effort).
   */
  static Optional<String> race(S3Location location, String key, int rounds, int threads) {
    return race(location, key, rounds, threads, RACE_BODY_BYTES);
  }

  static Optional<String> race(
      S3Location location, String key, int rounds, int threads, int bodyBytes) {
    ExecutorService executor =
        Executors.newFixedThreadPool(
            threads,
            task -> {
              Thread thread = new Thread(task, "fenceline-s3-probe");
              thread.setDaemon(true);
              return thread;
            });
    try {
      for (int r = 1; r <= rounds; r++) {
        int round = r;
        String raceKey = key + RACE_KEY_MARK + round;
        try {
          List<PutObjectResponse> created =
              burst(
                  executor,
                  threads,
                  i -> put(location, raceKey, body("create", round, i, bodyBytes), null, "*"));
          if (created.size() > 1) {
            return Optional.of(
                created.size()
                    + " of "
                    + threads
                    + " create-only PUTs (If-None-Match: *) of one new key were accepted; the"
                    + " endpoint checks and writes non-atomically, so two writers could both"
                    + " create");
          }
          String eTag =
              created.isEmpty()
                  ? put(location, raceKey, body("base", round, 0, bodyBytes), null, null).eTag()
                  : created.get(0).eTag();
          List<PutObjectResponse> replaced =
              burst(
                  executor,
                  threads,
                  i -> put(location, raceKey, body("swap", round, i, bodyBytes), eTag, null));
          if (replaced.size() > 1) {
            return Optional.of(
                replaced.size()
                    + " of "
                    + threads
                    + " PUTs with the same If-Match were accepted; the endpoint checks and writes"
                    + " non-atomically, so two writers could both swap");
          }
        } catch (SdkException e) {
          throw location.failure(
              "probe concurrent conditional writes on " + location.describe(raceKey), e, false);
        } finally {
          delete(location, raceKey);
        }
      }
      return Optional.empty();
    } finally {
      executor.shutdownNow();
    }
  }

  /**
   * Sends {@code threads} PUTs at once (released together by a barrier) and returns the accepted
   * ones. A refusal of any kind counts as not accepted: the check only counts acceptances.
   */
  private static List<PutObjectResponse> burst(
      ExecutorService executor, int threads, IntFunction<PutObjectResponse> put) {
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Future<Optional<PutObjectResponse>>> sent = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      int thread = i;
      sent.add(
          executor.submit(
              () -> {
                start.await(BURST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                try {
                  return Optional.of(put.apply(thread));
                } catch (SdkException e) {
                  return Optional.<PutObjectResponse>empty();
                }
              }));
    }
    List<PutObjectResponse> accepted = new ArrayList<>();
    try {
      for (Future<Optional<PutObjectResponse>> future : sent) {
        future.get(BURST_TIMEOUT_SECONDS, TimeUnit.SECONDS).ifPresent(accepted::add);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SdkException.create("interrupted while probing concurrent conditional writes", e);
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      if (cause instanceof BrokenBarrierException || cause instanceof TimeoutException) {
        throw SdkException.create("a burst of concurrent PUTs did not finish", cause);
      }
      throw SdkException.create("a concurrent PUT failed: " + cause, cause);
    }
    return accepted;
  }

  /**
   * A body of {@code bytes} bytes that differs for every PUT of a round: an overwrite with the same
   * bytes would keep the ETag (an MD5 on S3), and a second PUT with the old ETag would rightly
   * pass.
   */
  private static String body(String kind, int round, int thread, int bytes) {
    String head = "fenceline probe " + kind + " round " + round + " thread " + thread + "\n";
    return head.length() >= bytes ? head : head + ".".repeat(bytes - head.length());
  }

  private static void delete(S3Location location, String key) {
    try {
      location.client().deleteObject(b -> b.bucket(location.bucket()).key(key));
    } catch (SdkException e) {
      if (MarkedCredentials.notFound(e)) {
        return; // nothing was sent, so nothing was written either; the probe's failure says why
      }
      System.getLogger(ConditionalWriteProbe.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "Could not delete probe key " + location.describe(key) + ": " + e.getMessage());
    }
  }

  private static ConditionalWrites failed(
      S3Location location, List<String> passed, String check, String answer) {
    return new ConditionalWrites(
        location.describe(), passed, Optional.of("check \"" + check + "\": " + answer));
  }

  /** Empty if the PUT was refused with 412, else what happened instead. */
  private static Optional<String> expectRefused(
      S3Location location, String key, String body, String ifMatch, String ifNoneMatch) {
    try {
      put(location, key, body, ifMatch, ifNoneMatch);
      return Optional.of("the endpoint answered 200 and wrote the object, expected 412");
    } catch (SdkException e) {
      if (e instanceof software.amazon.awssdk.services.s3.model.S3Exception s3
          && s3.statusCode() == S3Location.PRECONDITION_FAILED) {
        return Optional.empty();
      }
      return Optional.of(answerOrThrow(location, key, e) + ", expected 412");
    }
  }

  private static PutObjectResponse put(
      S3Location location, String key, String body, String ifMatch, String ifNoneMatch) {
    PutObjectRequest.Builder request =
        PutObjectRequest.builder().bucket(location.bucket()).key(key);
    if (ifMatch != null) {
      request.ifMatch(ifMatch);
    }
    if (ifNoneMatch != null) {
      request.ifNoneMatch(ifNoneMatch);
    }
    return location.client().putObject(request.build(), RequestBody.fromString(body));
  }

  /**
   * Describes an answer about the conditions (400, 409, 412, 501: the endpoint refused or does not
   * implement them); throws for anything else (no answer, 403, 404, 5xx), which says nothing about
   * conditional writes.
   */
  private static String answerOrThrow(S3Location location, String key, SdkException e) {
    if (e instanceof software.amazon.awssdk.services.s3.model.S3Exception s3) {
      int status = s3.statusCode();
      if (status == 400 || status == 409 || status == 412 || status == 501) {
        String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
        return "the endpoint answered HTTP " + status + (code == null ? "" : " " + code);
      }
    }
    throw location.failure("probe conditional writes on " + location.describe(key), e, false);
  }
}
