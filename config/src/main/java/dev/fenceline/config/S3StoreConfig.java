package dev.fenceline.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A store of {@code type: s3} (needs {@code fenceline-s3} on the class path): a bucket that offers
 * a blob store, and pointer stores if the endpoint passes the conditional-write probe. Credentials
 * come from the AWS SDK's default chain (environment, profile, role), never from this file.
 *
 * <table>
 *   <caption>s3 keys</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code bucket}</td><td>the bucket</td><td>required</td></tr>
 *   <tr><td>{@code prefix}</td><td>key prefix inside the bucket</td><td>none</td></tr>
 *   <tr><td>{@code region}</td><td>AWS region</td><td>the SDK's default</td></tr>
 *   <tr><td>{@code endpoint}</td><td>an S3-compatible endpoint URL</td><td>AWS</td></tr>
 *   <tr><td>{@code path-style}</td><td>path-style bucket addressing</td><td>{@code false}</td></tr>
 *   <tr><td>{@code connect-timeout}, {@code socket-timeout}, {@code attempt-timeout}, {@code
 *       call-timeout}</td><td>durations ({@code call-timeout} bounds one request in all, the
 *       SDK's retries included)</td><td>the adapter's defaults (3 s, 10 s, 10 s, 20 s)</td></tr>
 *   <tr><td>{@code multipart-threshold}, {@code part-size}</td><td>sizes such as {@code 16MiB},
 *       from 5 MiB to 2 GiB (part-size: 512 MiB), checked at load and passed to the adapter as
 *       written</td><td>the adapter's defaults</td></tr>
 *   <tr><td>{@code probe-cache}</td><td>how long a passing conditional-write probe of this
 *       endpoint, bucket and prefix is kept in {@code $XDG_CACHE_HOME/fenceline/s3-probe} ({@code
 *       ~/.cache/...}); {@code 0} probes in every process ({@code fenceline doctor --recheck}
 *       probes afresh)</td><td>{@code 24h}</td></tr>
 * </table>
 *
 * @param bucket the bucket
 * @param prefix see the table
 * @param region see the table
 * @param endpoint see the table
 * @param pathStyle see the table
 * @param connectTimeout see the table
 * @param socketTimeout see the table
 * @param attemptTimeout see the table
 * @param callTimeout see the table
 * @param multipartThreshold see the table
 * @param partSize see the table
 * @param probeCache see the table; empty for the adapter's default, zero for none
 */
public record S3StoreConfig(
    String bucket,
    Optional<String> prefix,
    Optional<String> region,
    Optional<URI> endpoint,
    boolean pathStyle,
    Optional<Duration> connectTimeout,
    Optional<Duration> socketTimeout,
    Optional<Duration> attemptTimeout,
    Optional<Duration> callTimeout,
    Optional<String> multipartThreshold,
    Optional<String> partSize,
    Optional<Duration> probeCache) {

  static final Set<String> KEYS =
      Set.of(
          "type",
          "bucket",
          "prefix",
          "region",
          "endpoint",
          "path-style",
          "connect-timeout",
          "socket-timeout",
          "attempt-timeout",
          "call-timeout",
          "multipart-threshold",
          "part-size",
          "probe-cache");

  /** Validates the settings. */
  public S3StoreConfig {
    requireNonNull(bucket, "bucket is null");
    requireNonNull(prefix, "prefix is null");
    requireNonNull(region, "region is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(socketTimeout, "socketTimeout is null");
    requireNonNull(attemptTimeout, "attemptTimeout is null");
    requireNonNull(callTimeout, "callTimeout is null");
    requireNonNull(multipartThreshold, "multipartThreshold is null");
    requireNonNull(partSize, "partSize is null");
    requireNonNull(probeCache, "probeCache is null");
  }

  /** The flat keys the {@code s3} adapter factory takes. */
  public Map<String, String> adapterKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("bucket", bucket);
    prefix.ifPresent(value -> keys.put("prefix", value));
    region.ifPresent(value -> keys.put("region", value));
    endpoint.ifPresent(value -> keys.put("endpoint", value.toString()));
    keys.put("path-style", Boolean.toString(pathStyle));
    connectTimeout.ifPresent(value -> keys.put("connect-timeout", Durations.format(value)));
    socketTimeout.ifPresent(value -> keys.put("socket-timeout", Durations.format(value)));
    attemptTimeout.ifPresent(value -> keys.put("attempt-timeout", Durations.format(value)));
    callTimeout.ifPresent(value -> keys.put("call-timeout", Durations.format(value)));
    multipartThreshold.ifPresent(value -> keys.put("multipart-threshold", value));
    partSize.ifPresent(value -> keys.put("part-size", value));
    probeCache.ifPresent(
        value -> keys.put("probe-cache", value.isZero() ? "0" : Durations.format(value)));
    return keys;
  }

  static S3StoreConfig from(Section section) {
    section.allowOnly(KEYS);
    Optional<URI> endpoint =
        section
            .string("endpoint")
            .map(
                text -> {
                  try {
                    URI uri = new URI(text);
                    if (uri.getScheme() == null || uri.getHost() == null) {
                      throw new URISyntaxException(text, "no scheme or host");
                    }
                    return uri;
                  } catch (URISyntaxException e) {
                    throw section.valueError(
                        "endpoint",
                        "\"" + section.shown("endpoint", text) + "\" is not a URL",
                        "write it like https://s3.example.com");
                  }
                });
    Optional<String> multipartThreshold = section.string("multipart-threshold");
    Optional<String> partSize = section.string("part-size");
    multipartThreshold.ifPresent(
        text -> requireSize(section, "multipart-threshold", text, MAX_MULTIPART_THRESHOLD));
    partSize.ifPresent(text -> requireSize(section, "part-size", text, MAX_PART_SIZE));
    return new S3StoreConfig(
        section.requiredString("bucket", "reports-prod"),
        section.string("prefix"),
        section.string("region"),
        endpoint,
        section.bool("path-style").orElse(false),
        section.positiveDuration("connect-timeout"),
        section.positiveDuration("socket-timeout"),
        section.positiveDuration("attempt-timeout"),
        section.positiveDuration("call-timeout"),
        multipartThreshold,
        partSize,
        section.duration("probe-cache"));
  }

  // The s3 adapter's rules (S3AdapterFactory's size syntax, S3Store.Builder's bounds), checked at
  // load time for the file's line; config compiles without the s3 adapter.
  private static final java.util.regex.Pattern SIZE =
      java.util.regex.Pattern.compile(
          "([0-9]{1,12})\\s*(B|KiB|MiB|GiB)?", java.util.regex.Pattern.CASE_INSENSITIVE);
  private static final long MIN_PART_SIZE = 5L * 1024 * 1024;
  private static final long MAX_PART_SIZE = 512L * 1024 * 1024;
  private static final long MAX_MULTIPART_THRESHOLD = Integer.MAX_VALUE - 8L;

  private static void requireSize(Section section, String key, String text, long max) {
    java.util.regex.Matcher matcher = SIZE.matcher(text.strip());
    if (!matcher.matches()) {
      throw section.valueError(
          key,
          "\"" + section.shown(key, text) + "\" is not a size",
          "write bytes or a number with KiB, MiB or GiB, e.g. 16MiB");
    }
    long factor =
        switch (matcher.group(2) == null
            ? "b"
            : matcher.group(2).toLowerCase(java.util.Locale.ROOT)) {
          case "kib" -> 1024L;
          case "mib" -> 1024L * 1024;
          case "gib" -> 1024L * 1024 * 1024;
          default -> 1L;
        };
    long number = Long.parseLong(matcher.group(1));
    if (number > max / factor || number * factor < MIN_PART_SIZE) {
      throw section.valueError(
          key,
          text + " is out of range",
          "write a size from 5MiB (S3's smallest part) to "
              + (max == MAX_PART_SIZE ? "512MiB" : "2GiB"));
    }
  }
}
