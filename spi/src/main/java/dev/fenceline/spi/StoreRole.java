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
