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
package dev.fenceline.cli;

/**
 * The demo could not carry out a step: a worker failed, exited early or did not answer in time. The
 * message says which step and where to look.
 */
final class DemoFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  DemoFailure(String message) {
    super(message);
  }

  DemoFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
