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

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.Parameters;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A payments API for WireMock that keeps state: a stub that names this transformer and sets {@code
 * effect=true} creates a payment (the effective operation) before WireMock answers with the stub's
 * status, delay or fault, so a reset or a slow answer models "processed, answer lost". An API that
 * honours keys stores key → payment and replays it for a repeated key; one that ignores keys
 * creates a payment on every such request. A stub with {@code lookup=true} answers {@code
 * {"data":[payment]}} or {@code {"data":[]}} for {@code ?idempotency_key=}; a payment there carries
 * its {@code idempotency_key}. {@link #beforeNextRequest} runs an action while the API holds a
 * request, before it processes it (outside its lock, so other requests are served meanwhile).
 */
final class FakePaymentsApi implements ResponseDefinitionTransformerV2 {

  static final String NAME = "fake-payments-api";

  private final Map<String, String> paymentsByKey = new LinkedHashMap<>();
  private final List<String> effects = new ArrayList<>();
  private boolean honoursKeys = true;
  private final java.util.concurrent.Semaphore effectsSeen = new java.util.concurrent.Semaphore(0);
  private final java.util.concurrent.atomic.AtomicReference<Runnable> beforeNext =
      new java.util.concurrent.atomic.AtomicReference<>();

  /**
   * Runs {@code action} when the next request of a stub naming this transformer arrives, before the
   * API processes it; the request waits for the action to end.
   */
  void beforeNextRequest(Runnable action) {
    beforeNext.set(action);
  }

  /** Waits until {@code count} more effective operations happened; false if that took too long. */
  boolean awaitEffects(int count, java.time.Duration timeout) throws InterruptedException {
    return effectsSeen.tryAcquire(
        count, timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** From now on, every effective request creates a new payment, whatever its key. */
  synchronized void ignoreKeys() {
    honoursKeys = false;
  }

  /** Effective operations per idempotency key, counted from the API's state. */
  synchronized Map<String, Long> effectsPerKey() {
    Map<String, Long> counts = new TreeMap<>();
    effects.forEach(key -> counts.merge(key, 1L, Long::sum));
    return counts;
  }

  /** The payment recorded for {@code key}, if any. */
  synchronized String paymentFor(String key) {
    return paymentsByKey.get(key);
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public boolean applyGlobally() {
    return false;
  }

  @Override
  public ResponseDefinition transform(ServeEvent event) {
    Runnable action = beforeNext.getAndSet(null);
    if (action != null) {
      action.run();
    }
    return process(event);
  }

  private synchronized ResponseDefinition process(ServeEvent event) {
    LoggedRequest request = event.getRequest();
    ResponseDefinition stub = event.getResponseDefinition();
    Parameters parameters =
        stub.getTransformerParameters() == null
            ? Parameters.empty()
            : stub.getTransformerParameters();
    String key = request.getHeader("Idempotency-Key");
    if (Boolean.TRUE.equals(parameters.get("lookup"))) {
      String wanted = request.queryParameter("idempotency_key").firstValue();
      String payment = paymentsByKey.get(wanted);
      return ResponseDefinitionBuilder.like(stub)
          .withHeader("Content-Type", "application/json")
          .withBody(
              payment == null ? "{\"data\":[]}" : "{\"data\":[" + json(payment, wanted) + "]}")
          .build();
    }
    String payment = paymentsByKey.get(key);
    if (Boolean.TRUE.equals(parameters.get("effect")) && (payment == null || !honoursKeys)) {
      payment = "pay-" + (effects.size() + 1);
      paymentsByKey.put(key, payment);
      effects.add(key);
      effectsSeen.release();
    }
    // A stub with its own body (e.g. not JSON) answers with it; otherwise the payment is the body.
    if (stub.getStatus() >= 200
        && stub.getStatus() < 300
        && payment != null
        && stub.getBody() == null) {
      return ResponseDefinitionBuilder.like(stub)
          .withHeader("Content-Type", "application/json")
          .withBody(json(payment, key))
          .build();
    }
    return stub;
  }

  private static String json(String payment, String key) {
    return "{\"id\":\""
        + payment
        + "\",\"status\":\"succeeded\",\"idempotency_key\":\""
        + key
        + "\"}";
  }
}
