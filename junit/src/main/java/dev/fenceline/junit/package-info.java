/**
 * A JUnit 5 extension for testing that a job stays safe when its worker stalls: {@link
 * dev.fenceline.junit.FencelineTest} (or {@code @ExtendWith(FencelineExtension.class)}) injects a
 * {@link dev.fenceline.junit.FencelineLab} (an in-memory issuer on a clock the test moves, workers,
 * fenced in-memory destinations, pause points), and {@link dev.fenceline.junit.FencelineAssertions}
 * checks outcomes. See {@code docs/junit.md}.
 */
package dev.fenceline.junit;
