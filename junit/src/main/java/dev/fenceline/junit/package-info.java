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
/**
 * A JUnit 5 extension for testing that a job stays safe when its worker stalls: {@link
 * dev.fenceline.junit.FencelineTest} (or {@code @ExtendWith(FencelineExtension.class)}) injects a
 * {@link dev.fenceline.junit.FencelineLab} (an in-memory issuer on a clock the test moves, workers,
 * fenced in-memory destinations, pause points), and {@link dev.fenceline.junit.FencelineAssertions}
 * checks outcomes. See {@code docs/junit.md}.
 */
package dev.fenceline.junit;
