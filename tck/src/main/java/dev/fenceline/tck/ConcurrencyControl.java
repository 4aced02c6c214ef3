package dev.fenceline.tck;

/**
 * How a store under test serializes two fenced steps on the same resource. Every contract subclass
 * declares it, since the contract's concurrency tests differ in one point only: a {@link #LOCKING}
 * store must make the second writer wait, a {@link #COMPARE_AND_SWAP} store must not. Both must
 * give linearizable outcomes: the two steps' results are as if one ran entirely before the other.
 */
public enum ConcurrencyControl {

  /**
   * A writer locks the resource's control record from its epoch check to its commit (a row lock, a
   * database write lock, a mutex); a second writer waits for the lock.
   */
  LOCKING,

  /**
   * A writer reads the resource's state, decides, and commits with a compare-and-swap on the
   * version it read (S3 {@code If-Match}, ZooKeeper versions, etcd revisions). Nobody waits: when
   * the swap fails because another step committed in between, the writer reads again and decides
   * again.
   */
  COMPARE_AND_SWAP
}
