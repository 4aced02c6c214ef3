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

/**
 * What a configured store can serve as: the components its {@link Adapter} offers. An {@link
 * AdapterFactory} declares them ({@link AdapterFactory#roles()}) so that a configuration that puts
 * a store in a role it cannot play is refused when it is loaded, before anything is opened.
 */
public enum StoreRole {
  /** {@link Adapter#leaseIssuer()}: issues leases and their fencing tokens. */
  LEASE_ISSUER,
  /** {@link Adapter#pointerStore(String)}: publish pointers swapped with an epoch check. */
  POINTER_STORE,
  /** {@link Adapter#intentStore(String)}: fenced intents for calls to external APIs. */
  INTENT_STORE,
  /** {@link Adapter#blobStore()}: a plain store of staged files that cannot check epochs. */
  BLOB_STORE,
  /** {@link Adapter#destination(String)}: a fenced destination of payloads, checked natively. */
  DESTINATION
}
