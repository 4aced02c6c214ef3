/**
 * ShedLock on Fenceline: {@link dev.fenceline.shedlock.FencelineLockProvider}, a ShedLock {@code
 * ExtensibleLockProvider} over any {@link dev.fenceline.spi.LeaseIssuer}, and {@link
 * dev.fenceline.shedlock.FencelineLocks}, where the running task finds its lock's fencing token.
 * The token protects writes only through fenced destinations (R10); see {@code docs/shedlock.md}.
 */
package dev.fenceline.shedlock;
