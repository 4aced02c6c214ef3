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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code fenceline.*} keys, described for IDE completion (the configuration processor's
 * metadata): the same tree as {@code fenceline.yaml} ({@code docs/configuration-reference.md}). The
 * values are not bound to this class: the starter hands the tree to {@code fenceline-config}, which
 * reads and checks it with the same code and messages as a file. A test keeps these keys equal to
 * the ones {@code fenceline-config} reads.
 */
@ConfigurationProperties("fenceline")
public class FencelineProperties {

  /**
   * The store whose lease issuer hands out fencing tokens (a store of type jdbc or zookeeper);
   * default: "application", the application's DataSource, if it has one.
   */
  private String issuer;

  /** Lease length, renewal and holder. */
  private final Lease lease = new Lease();

  /** Publish to destinations that check nothing (UNGUARDED); default false. */
  private boolean allowUnguarded;

  /** Publish to destinations that deduplicate retries but cannot reject a stale writer. */
  private boolean allowIdempotentOnly;

  /** Publish to external APIs fenced at the intent (FENCED_AT_INTENT). */
  private boolean allowFencedAtIntent;

  /**
   * Named stores, each with "type" (jdbc, vfs, s3, zookeeper) and that adapter's keys (see
   * docs/configuration-reference.md). The store "application" (the application's DataSource) is
   * there without being listed.
   */
  private Map<String, Map<String, Object>> stores = new LinkedHashMap<>();

  /**
   * Named destinations, each with "type" (staged, the default; http; fenced) and that kind's keys
   * (see docs/configuration-reference.md); each is a bean of the same name.
   */
  private Map<String, Map<String, Object>> destinations = new LinkedHashMap<>();

  /** The store whose lease issuer hands out fencing tokens. */
  public String getIssuer() {
    return issuer;
  }

  /** Sets the issuer store. */
  public void setIssuer(String issuer) {
    this.issuer = issuer;
  }

  /** Lease length, renewal and holder. */
  public Lease getLease() {
    return lease;
  }

  /** Whether UNGUARDED destinations may be published to. */
  public boolean isAllowUnguarded() {
    return allowUnguarded;
  }

  /** Sets whether UNGUARDED destinations may be published to. */
  public void setAllowUnguarded(boolean allowUnguarded) {
    this.allowUnguarded = allowUnguarded;
  }

  /** Whether IDEMPOTENT_ONLY destinations may be published to. */
  public boolean isAllowIdempotentOnly() {
    return allowIdempotentOnly;
  }

  /** Sets whether IDEMPOTENT_ONLY destinations may be published to. */
  public void setAllowIdempotentOnly(boolean allowIdempotentOnly) {
    this.allowIdempotentOnly = allowIdempotentOnly;
  }

  /** Whether FENCED_AT_INTENT destinations may be published to. */
  public boolean isAllowFencedAtIntent() {
    return allowFencedAtIntent;
  }

  /** Sets whether FENCED_AT_INTENT destinations may be published to. */
  public void setAllowFencedAtIntent(boolean allowFencedAtIntent) {
    this.allowFencedAtIntent = allowFencedAtIntent;
  }

  /** Named stores. */
  public Map<String, Map<String, Object>> getStores() {
    return stores;
  }

  /** Sets the named stores. */
  public void setStores(Map<String, Map<String, Object>> stores) {
    this.stores = stores;
  }

  /** Named destinations. */
  public Map<String, Map<String, Object>> getDestinations() {
    return destinations;
  }

  /** Sets the named destinations. */
  public void setDestinations(Map<String, Map<String, Object>> destinations) {
    this.destinations = destinations;
  }

  /** The {@code fenceline.lease.*} keys. */
  public static class Lease {

    /**
     * Lease length. Choose it from observed pauses: a lease shorter than an ordinary GC or VM pause
     * makes healthy instances lose it.
     */
    private Duration ttl = Duration.ofSeconds(30);

    /** Background renewal period, shorter than the ttl (0 turns it off); default a third of ttl. */
    private Duration renewEvery;

    /** This instance's name, unique per application instance; default host:pid. */
    private String holder;

    /** Lease length. */
    public Duration getTtl() {
      return ttl;
    }

    /** Sets the lease length. */
    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }

    /** Background renewal period. */
    public Duration getRenewEvery() {
      return renewEvery;
    }

    /** Sets the background renewal period. */
    public void setRenewEvery(Duration renewEvery) {
      this.renewEvery = renewEvery;
    }

    /** This instance's holder name. */
    public String getHolder() {
      return holder;
    }

    /** Sets this instance's holder name. */
    public void setHolder(String holder) {
      this.holder = holder;
    }
  }
}
