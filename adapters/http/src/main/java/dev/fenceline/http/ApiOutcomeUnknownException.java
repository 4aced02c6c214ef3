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
package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import dev.fenceline.spi.OperationId;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.spi.StoreException;

/**
 * A call to an external API may or may not have landed, and no lookup could tell: the operation is
 * <em>in doubt</em> ({@link #outcomeUnknown()} is always true). Its intent stays recorded and not
 * completed, and nothing was sent under any other idempotency key. Retry the write with the same
 * operation ID (the retry looks the result up first and re-sends under the same key only if the API
 * says it never saw it), or ask the API's operators with the {@link #idempotencyKey()}.
 */
public class ApiOutcomeUnknownException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final ResourceId resource;
  private final OperationId operation;
  private final String idempotencyKey;

  /** Creates the exception; the key is not secret and is part of the message. */
  public ApiOutcomeUnknownException(
      String message,
      Throwable cause,
      ResourceId resource,
      OperationId operation,
      String idempotencyKey) {
    super(message, cause, true);
    this.resource = requireNonNull(resource, "resource is null");
    this.operation = requireNonNull(operation, "operation is null");
    this.idempotencyKey = requireNonNull(idempotencyKey, "idempotencyKey is null");
  }

  /** The resource the operation is for. */
  public ResourceId resource() {
    return resource;
  }

  /** The operation in doubt. */
  public OperationId operation() {
    return operation;
  }

  /** The idempotency key every request of the operation carried. */
  public String idempotencyKey() {
    return idempotencyKey;
  }
}
