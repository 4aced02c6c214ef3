package dev.fenceline.spi;

/**
 * The answer of {@link IntentStore#begin}: either the attempt may go on ({@link IntentRecorded}),
 * or a newer epoch is registered and the caller must not send anything ({@link RejectedStale}).
 */
public sealed interface IntentOutcome permits IntentRecorded, RejectedStale {

  /** {@return the resource the intent is for} */
  ResourceId resource();
}
