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
package dev.fenceline.spi;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * What an {@link IntentStore} recorded before a call to a system that cannot check epochs (R7): the
 * operation, the request's fingerprint, the newest epoch that was allowed to send it and how many
 * attempts began. An intent whose {@link #receipt()} is present is completed: the call's result was
 * recorded and the operation must not be sent again.
 *
 * @param destination the name of the destination the intent belongs to (intents are scoped per
 *     destination like operation records)
 * @param resource the resource the operation is for
 * @param operation the business operation (the same across retries and workers)
 * @param fingerprint what the request asks for; every attempt must carry the same one
 * @param epoch the epoch of the newest attempt that began (the one allowed to send now)
 * @param attempts how many attempts began, at least 1; above 1 an earlier attempt may have sent the
 *     request, so its result must be looked up before sending again
 * @param recordedAt when the first attempt was recorded, by the store's clock (informational)
 * @param receipt the recorded result, if the operation is completed
 */
public record Intent(
    String destination,
    ResourceId resource,
    OperationId operation,
    RequestFingerprint fingerprint,
    Epoch epoch,
    int attempts,
    Instant recordedAt,
    Optional<Receipt> receipt) {

  /**
   * Validates the intent.
   *
   * @param destination the destination's name
   * @param resource the resource
   * @param operation the operation ID
   * @param fingerprint the request's fingerprint
   * @param epoch the epoch
   * @param attempts how many attempts began
   * @param recordedAt when it was recorded, by the store's clock
   * @param receipt the receipt of the applied write
   * @throws IllegalArgumentException if {@code attempts} is below 1, or the receipt is for another
   *     destination, resource or operation
   */
  public Intent {
    Destination.validateName(destination);
    requireNonNull(resource, "resource is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(fingerprint, "fingerprint is null");
    requireNonNull(epoch, "epoch is null");
    requireNonNull(recordedAt, "recordedAt is null");
    requireNonNull(receipt, "receipt is null");
    if (attempts < 1) {
      throw new IllegalArgumentException(
          "Cannot record an intent for "
              + resource
              + "/"
              + operation
              + " with "
              + attempts
              + " attempts: at least one attempt began");
    }
    receipt.ifPresent(
        recorded -> {
          if (!recorded.destination().equals(destination)
              || !recorded.resource().equals(resource)
              || !recorded.operation().equals(operation)) {
            throw new IllegalArgumentException(
                "Cannot record an intent for "
                    + destination
                    + "/"
                    + resource
                    + "/"
                    + operation
                    + " with the receipt of "
                    + recorded.destination()
                    + "/"
                    + recorded.resource()
                    + "/"
                    + recorded.operation());
          }
        });
  }

  /** {@return true if the result was recorded: the operation must not be sent again} */
  public boolean completed() {
    return receipt.isPresent();
  }

  /**
   * {@return true if an attempt before the newest one began and the operation is not completed:
   * that attempt may have sent the request, so look the result up before sending again}
   */
  public boolean mayHaveBeenSent() {
    return attempts > 1 && receipt.isEmpty();
  }
}
