package dev.fenceline.s3;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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
 *   <li>the object holds what the last successful PUT wrote (the refused ones changed nothing).
 * </ol>
 *
 * The probe key is deleted afterwards (best effort). Costs six requests.
 */
final class ConditionalWriteProbe {

  static final String PROBE_AREA = ".fenceline/probe";

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
      return new ConditionalWrites(location.describe(), passed, Optional.empty());
    } finally {
      try {
        location.client().deleteObject(b -> b.bucket(location.bucket()).key(key));
      } catch (SdkException e) {
        System.getLogger(ConditionalWriteProbe.class.getName())
            .log(
                System.Logger.Level.WARNING,
                "Could not delete probe key " + location.describe(key) + ": " + e.getMessage());
      }
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
