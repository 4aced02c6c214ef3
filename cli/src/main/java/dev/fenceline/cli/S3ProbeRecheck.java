package dev.fenceline.cli;

/**
 * {@code doctor --recheck}: asks the {@code s3} adapter to probe conditional writes again instead
 * of using a cached pass. The adapter is found at run time (the command does not compile against
 * it), so the request is its documented system property, {@code
 * dev.fenceline.s3.S3AdapterFactory#RECHECK_PROPERTY}; set before any store opens.
 */
final class S3ProbeRecheck {

  /** The s3 adapter's {@code RECHECK_PROPERTY} (a test checks that the two agree). */
  static final String PROPERTY = "fenceline.s3.probe-recheck";

  private S3ProbeRecheck() {}

  /** Makes the S3 stores opened from now on in this process probe afresh, if {@code recheck}. */
  static void requestIf(boolean recheck) {
    if (recheck) {
      System.setProperty(PROPERTY, "true");
    }
  }
}
