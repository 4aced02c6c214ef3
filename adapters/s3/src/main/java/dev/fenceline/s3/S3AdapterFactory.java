package dev.fenceline.s3;

import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.AdapterConfig;
import dev.fenceline.spi.AdapterFactory;
import dev.fenceline.spi.BlobStore;
import dev.fenceline.spi.PointerStore;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code s3} adapter: an {@link S3Store} offering its {@link S3BlobStore} and, on endpoints
 * that pass the conditional-write probe, {@link S3PointerStore}s. Keys: {@code bucket} (required),
 * {@code prefix}, {@code region}, {@code endpoint} (an S3-compatible endpoint URL), {@code
 * path-style} ({@code false} by default), {@code connect-timeout}, {@code socket-timeout}, {@code
 * attempt-timeout}, {@code call-timeout} (durations such as {@code 20s}; defaults 3 s, 10 s, 10 s
 * and 20 s, see {@link S3Store.Builder#callTimeout}), {@code multipart-threshold} and {@code
 * part-size} (sizes such as {@code 16MiB}), {@code probe-cache} (how long a passing
 * conditional-write probe is kept in {@code $XDG_CACHE_HOME/fenceline/s3-probe}, default {@code
 * PT24H}; {@code 0} probes in every process, see {@link S3Store.Builder#probeCache}). Credentials
 * are not configured here: they come from the SDK's default provider chain (environment, system
 * properties, profile, container or instance role), and never appear in messages.
 *
 * <p>{@link Adapter#pointerStore(String)} probes the endpoint on first use and throws a {@link
 * dev.fenceline.spi.ConfigurationException} if it ignores conditional writes; use the blob store
 * with another adapter's pointer store there.
 */
public final class S3AdapterFactory implements AdapterFactory {

  private static final Set<String> KEYS =
      Set.of(
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

  /**
   * The system property that makes every {@code s3} store created afterwards probe again instead of
   * using a cached pass, and cache the new result ({@code fenceline doctor --recheck} sets it).
   */
  public static final String RECHECK_PROPERTY = "fenceline.s3.probe-recheck";

  private static final Pattern SIZE =
      Pattern.compile("([0-9]{1,12})\\s*(B|KiB|MiB|GiB)?", Pattern.CASE_INSENSITIVE);

  @Override
  public String name() {
    return "s3";
  }

  @Override
  public Adapter create(String instanceName, Map<String, String> values) {
    AdapterConfig config = AdapterConfig.of(name(), instanceName, values, KEYS);
    S3Store.Builder builder = S3Store.builder(config.required("bucket", "reports-prod"));
    config.optional("prefix").ifPresent(builder::prefix);
    config.optional("region").ifPresent(builder::region);
    config.optional("endpoint").ifPresent(endpoint -> builder.endpoint(uri(config, endpoint)));
    config.bool("path-style").ifPresent(builder::pathStyle);
    config.duration("connect-timeout").ifPresent(builder::connectTimeout);
    config.duration("socket-timeout").ifPresent(builder::socketTimeout);
    config.duration("attempt-timeout").ifPresent(builder::attemptTimeout);
    config.duration("call-timeout").ifPresent(builder::callTimeout);
    size(config, "multipart-threshold").ifPresent(builder::multipartThreshold);
    size(config, "part-size")
        .ifPresent(
            bytes -> {
              if (bytes > Integer.MAX_VALUE) {
                throw config.error(
                    "key \"part-size\" is "
                        + bytes
                        + " bytes, more than S3 parts can be here (write at most 512MiB)");
              }
              builder.partSize((int) (long) bytes);
            });
    Duration probeCache = probeCache(config);
    if (!probeCache.isZero()) {
      builder.probeCache(ProbeCache.defaultDirectory(System::getenv), probeCache);
    }
    builder.recheckProbe(Boolean.getBoolean(RECHECK_PROPERTY));
    S3Store store = builder.build();
    return new Adapter() {
      @Override
      public Optional<BlobStore> blobStore() {
        return Optional.of(store.blobStore());
      }

      @Override
      public Optional<PointerStore> pointerStore(String name) {
        return Optional.of(store.pointerStore(name));
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }

  /** {@code probe-cache}: 24 hours unless set; {@code 0} for none. */
  private static Duration probeCache(AdapterConfig config) {
    Optional<String> value = config.optional("probe-cache");
    if (value.isPresent() && value.get().trim().equals("0")) {
      return Duration.ZERO;
    }
    Duration expiry = config.duration("probe-cache").orElse(ProbeCache.DEFAULT_EXPIRY);
    if (expiry.isNegative()) {
      throw config.error(
          "key \"probe-cache\" has value \""
              + value.orElseThrow()
              + "\" (write how long a passing probe is kept, e.g. PT24H, or 0 to probe every time)");
    }
    return expiry;
  }

  private static URI uri(AdapterConfig config, String value) {
    try {
      return new URI(value);
    } catch (java.net.URISyntaxException e) {
      throw config.error(
          "key \"endpoint\" is not a URL: "
              + e.getReason()
              + " (write it like https://s3.example.com)");
    }
  }

  /** A size such as {@code 16MiB}, {@code 5242880} or {@code 512KiB}. */
  private static Optional<Long> size(AdapterConfig config, String key) {
    return config
        .optional(key)
        .map(
            value -> {
              Matcher matcher = SIZE.matcher(value.trim());
              if (!matcher.matches()) {
                throw config.error(
                    "key \""
                        + key
                        + "\" has value \""
                        + value
                        + "\", not a size (write bytes or a number with KiB, MiB or GiB, e.g."
                        + " 16MiB)");
              }
              long number = Long.parseLong(matcher.group(1));
              String unit =
                  matcher.group(2) == null ? "b" : matcher.group(2).toLowerCase(Locale.ROOT);
              long factor =
                  switch (unit) {
                    case "kib" -> 1024L;
                    case "mib" -> 1024L * 1024;
                    case "gib" -> 1024L * 1024 * 1024;
                    default -> 1L;
                  };
              if (number > Long.MAX_VALUE / factor) {
                throw config.error("key \"" + key + "\" has value \"" + value + "\", too large");
              }
              return number * factor;
            });
  }
}
