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
package dev.fenceline.benchmarks;

import dev.fenceline.jdbc.JdbcLeaseIssuer;
import dev.fenceline.jdbc.JdbcPointerStore;
import dev.fenceline.spi.Applied;
import dev.fenceline.spi.Lease;
import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.Registered;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.WriteOutcome;
import dev.fenceline.staging.StagedDestination;
import dev.fenceline.vfs.VfsBlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The second table: publishing a file through {@link StagedDestination} (a local {@link
 * VfsBlobStore} fenced by a {@link JdbcPointerStore} on the SQLite file) against copying the same
 * file into the same directory. {@link VfsBlobStore#put} writes the blob at its key (no rename),
 * then forces the file and its directory to disk; so the peer that is as durable is "raw copy +
 * fsync" (file and directory). The plain copy (page cache only) and a copy that also computes the
 * SHA-256 (as staging does for the receipt) are shown to explain the difference. Payloads are
 * streamed from a source file, never held in memory; every file written is deleted after each
 * round.
 */
final class StagedPublishBenchmark {

  static final String STAGED = "staged publish";
  static final String COPY = "raw copy";
  static final String COPY_FSYNC = "raw copy + fsync";
  static final String COPY_SHA_FSYNC = "raw copy + SHA-256 + fsync";
  static final List<String> VARIANTS = List.of(STAGED, COPY, COPY_FSYNC, COPY_SHA_FSYNC);

  private static final long MIN_FREE_FOR_LARGE = 4 * Options.GIB;

  private static volatile boolean syncAvailable = true;

  /** The results for one payload size, or the reason it was skipped. */
  record SizeResult(long size, Optional<String> skipped, List<VariantResult> variants) {}

  /** The publish times of one variant. */
  record VariantResult(String name, Latencies latencies) {}

  private StagedPublishBenchmark() {}

  static List<SizeResult> run(
      Database sqlite,
      Path directory,
      List<Long> sizes,
      int rounds,
      boolean quick,
      String prefix,
      Consumer<String> progress)
      throws IOException {
    Files.createDirectories(directory);
    List<SizeResult> results = new ArrayList<>();
    JdbcLeaseIssuer issuer = sqlite.store().leaseIssuer();
    JdbcPointerStore pointers = sqlite.store().pointerStore("bench-staged");
    Path blobs = directory.resolve("blobs");
    try (VfsBlobStore files = VfsBlobStore.open(blobs.toUri().toString())) {
      StagedDestination staged = StagedDestination.builder(files, pointers).build();
      for (long size : sizes) {
        Optional<String> skip = lackOfSpace(directory, size);
        if (skip.isPresent()) {
          progress.accept(skip.get());
          results.add(new SizeResult(size, skip, List.of()));
          continue;
        }
        results.add(
            runSize(staged, issuer, blobs, directory, size, rounds, quick, prefix, progress));
      }
    } finally {
      Database.deleteTree(blobs);
    }
    return results;
  }

  private static Optional<String> lackOfSpace(Path directory, long size) throws IOException {
    long free = Files.getFileStore(directory).getUsableSpace();
    // The source file and one written copy exist at once; a large payload also keeps a margin.
    long needed = size >= Options.GIB ? Math.max(MIN_FREE_FOR_LARGE, 3 * size) : 3 * size;
    if (free < needed) {
      return Optional.of(
          "Skipping the staged publish of "
              + Options.shownSize(size)
              + ": only "
              + free / Options.MIB
              + " MiB free in "
              + directory
              + ", "
              + needed / Options.MIB
              + " MiB needed (free space, or point --work-dir at a larger volume)");
    }
    return Optional.empty();
  }

  private static SizeResult runSize(
      StagedDestination staged,
      JdbcLeaseIssuer issuer,
      Path blobs,
      Path directory,
      long size,
      int rounds,
      boolean quick,
      String prefix,
      Consumer<String> progress)
      throws IOException {
    Path source = directory.resolve("source-" + size + ".bin");
    writeSource(source, size);
    ResourceId resource = ResourceId.of("bench/" + prefix + "/staged-" + size);
    Lease lease =
        issuer
            .tryAcquire(resource, "bench-staged", Duration.ofHours(1))
            .orElseThrow(() -> new IllegalStateException("Cannot acquire " + resource));
    try {
      if (!(staged.register(lease.token()) instanceof Registered)) {
        throw new IllegalStateException("Cannot register " + lease.token() + " for " + resource);
      }
      long[] count = {0};
      // The first publish also tells where staged blobs land: the raw copies go to the same
      // directory, so both pay the same directory fsync.
      publish(staged, lease, resource, source, ++count[0]);
      Path stagingDirectory =
          blobs.resolve(staged.resolve(resource).orElseThrow().key().value()).getParent();
      List<Latencies> latencies = new ArrayList<>();
      for (int v = 0; v < VARIANTS.size(); v++) {
        latencies.add(new Latencies());
      }
      boolean large = size >= 256 * Options.MIB;
      int perRound = large ? 1 : quick ? 5 : 20;
      if (!large) {
        for (int v = 0; v < VARIANTS.size(); v++) { // warm-up, discarded
          runVariant(v, staged, lease, resource, source, stagingDirectory, count, null);
        }
      }
      cleanUp(blobs);
      for (int round = 0; round < rounds; round++) {
        progress.accept(
            "staged publish " + Options.shownSize(size) + ": round " + (round + 1) + "/" + rounds);
        for (int k = 0; k < VARIANTS.size(); k++) {
          int v = (k + round) % VARIANTS.size();
          for (int i = 0; i < perRound; i++) {
            runVariant(
                v, staged, lease, resource, source, stagingDirectory, count, latencies.get(v));
          }
        }
        cleanUp(blobs);
      }
      List<VariantResult> variants = new ArrayList<>();
      for (int v = 0; v < VARIANTS.size(); v++) {
        variants.add(new VariantResult(VARIANTS.get(v), latencies.get(v)));
      }
      return new SizeResult(size, Optional.empty(), variants);
    } finally {
      issuer.release(lease);
      cleanUp(blobs);
      Files.deleteIfExists(source);
    }
  }

  private static void runVariant(
      int variant,
      StagedDestination staged,
      Lease lease,
      ResourceId resource,
      Path source,
      Path stagingDirectory,
      long[] count,
      Latencies into)
      throws IOException {
    long n = ++count[0];
    flushDirtyPages();
    long begin = System.nanoTime();
    switch (VARIANTS.get(variant)) {
      case STAGED -> publish(staged, lease, resource, source, n);
      case COPY -> copy(source, stagingDirectory.resolve("raw-" + n + ".bin"), false, false);
      case COPY_FSYNC -> copy(source, stagingDirectory.resolve("raw-" + n + ".bin"), false, true);
      case COPY_SHA_FSYNC ->
          copy(source, stagingDirectory.resolve("raw-" + n + ".bin"), true, true);
      default -> throw new IllegalStateException("unknown variant " + variant);
    }
    long nanos = System.nanoTime() - begin;
    if (into != null) {
      into.record(nanos);
    }
  }

  private static void publish(
      StagedDestination staged, Lease lease, ResourceId resource, Path source, long n)
      throws IOException {
    try (InputStream payload = Files.newInputStream(source)) {
      WriteOutcome outcome =
          staged.write(
              lease.token(), OperationId.of(resource.value().replace('/', '.') + "-" + n), payload);
      if (!(outcome instanceof Applied)) {
        throw new IllegalStateException("Expected Applied, got " + outcome);
      }
    }
  }

  /**
   * Streams {@code source} to the new file {@code target}; with {@code fsync}, forces the file and
   * then its directory to disk as {@link VfsBlobStore#put} does.
   */
  static void copy(Path source, Path target, boolean sha256, boolean fsync) throws IOException {
    try (InputStream in = Files.newInputStream(source);
        OutputStream file =
            Files.newOutputStream(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        OutputStream out = sha256 ? new DigestOutputStream(file, sha256()) : file) {
      in.transferTo(out);
      if (out instanceof DigestOutputStream digest) {
        HexFormat.of().formatHex(digest.getMessageDigest().digest());
      }
    }
    if (fsync) {
      try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      try (FileChannel parent = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
        parent.force(true);
      }
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Cannot compute SHA-256: the JDK lacks it", e);
    }
  }

  /**
   * Runs {@code sync} (outside the timing) so that the dirty pages a copy without fsync left behind
   * are written now, not during the next variant's measurement (the kernel would otherwise flush or
   * throttle them then). Without a {@code sync} command the variants share that noise.
   */
  private static void flushDirtyPages() throws IOException {
    if (!syncAvailable) {
      return;
    }
    try {
      Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
      sync.getInputStream().transferTo(OutputStream.nullOutputStream());
      if (sync.waitFor() != 0) {
        syncAvailable = false;
      }
    } catch (IOException e) {
      syncAvailable = false; // no sync command on this system
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while flushing dirty pages", e);
    }
  }

  /** Whether the harness could run {@code sync} before each operation. */
  static boolean syncAvailable() {
    return syncAvailable;
  }

  /** Writes {@code size} pseudo-random bytes, 1 MiB at a time. */
  static void writeSource(Path source, long size) throws IOException {
    SplittableRandom random = new SplittableRandom(42);
    byte[] chunk = new byte[(int) Math.min(size, Options.MIB)];
    try (OutputStream out =
        Files.newOutputStream(
            source,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      for (long written = 0; written < size; written += chunk.length) {
        for (int i = 0; i < chunk.length; i += 8) {
          long value = random.nextLong();
          for (int b = 0; b < 8 && i + b < chunk.length; b++) {
            chunk[i + b] = (byte) (value >>> (8 * b));
          }
        }
        out.write(chunk, 0, (int) Math.min(chunk.length, size - written));
      }
    }
  }

  /** Deletes every file below the blob store's directory (published blobs and raw copies). */
  private static void cleanUp(Path blobs) throws IOException {
    if (!Files.exists(blobs)) {
      return;
    }
    try (var paths = Files.walk(blobs)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        if (Files.isRegularFile(path)) {
          Files.deleteIfExists(path);
        }
      }
    }
  }
}
