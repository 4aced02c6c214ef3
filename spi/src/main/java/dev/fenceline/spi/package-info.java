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
 * Fenceline's contracts: value types ({@link dev.fenceline.spi.ResourceId}, {@link
 * dev.fenceline.spi.Epoch}, {@link dev.fenceline.spi.FencingToken}, {@link
 * dev.fenceline.spi.OperationId}, {@link dev.fenceline.spi.Receipt}), outcomes ({@link
 * dev.fenceline.spi.WriteOutcome}), and the SPIs adapters implement ({@link
 * dev.fenceline.spi.LeaseIssuer}, {@link dev.fenceline.spi.Destination}, {@link
 * dev.fenceline.spi.PointerStore}, {@link dev.fenceline.spi.BlobStore}, {@link
 * dev.fenceline.spi.AdapterFactory}). Depends on the JDK only.
 *
 * <p>Requirement IDs cited in the Javadoc ("R3", "R11 c") are defined in the repository's {@code
 * docs/requirements.md}.
 */
package dev.fenceline.spi;
