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
package dev.fenceline.spring;

import dev.fenceline.spi.ResourceId;
import java.lang.reflect.Method;

/**
 * Hears how each call of a {@link Fenced} method ended; every bean of this type hears every call
 * (the starter's Micrometer counter {@code fenceline.fenced.runs} is one). Called on the method's
 * thread after the lease was released; keep it short, and do not throw (what it throws is logged).
 */
@FunctionalInterface
public interface FencedRunListener {

  /** How a call of a {@link Fenced} method ended. */
  enum Outcome {
    /** The method ran and returned while its lease was held. */
    COMPLETED,
    /** The method ran and threw while its lease was held. */
    FAILED,
    /** The lease was lost while the method ran (its thread was interrupted). */
    LOST,
    /** Another instance held the lease: the method did not run. */
    SKIPPED
  }

  /**
   * Called once per call of {@code method}, fenced on {@code resource}, after it ended as {@code
   * outcome}. Not called for a call that could not ask the issuer (the issuer's failure is thrown
   * to the caller) nor for a nested call under an outer call's lease.
   */
  void ended(ResourceId resource, Method method, Outcome outcome);
}
