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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a bean method only while this application instance holds the lease on {@link #resource()}:
 * on a {@code @Scheduled} method, the run of whichever instance acquires it.
 *
 * <pre>{@code
 * @Fenced(resource = "nightly-report")
 * @Scheduled(cron = "0 0 2 * * *")
 * public void publishNightlyReport() {
 *   HeldLease lease = FencedContext.currentLease();
 *   fenceline.register(lease, reports); // older owners are cut off from here on
 *   fenceline.publish(lease, reports, OperationId.of("report-" + LocalDate.now()), compute());
 * }
 * }</pre>
 *
 * <p>Each call acquires the lease through the application's {@link dev.fenceline.core.Fenceline}
 * bean:
 *
 * <ul>
 *   <li><b>Held elsewhere</b> (by another instance, or by this one on another thread): the method
 *       does not run. The call logs one line (INFO, logger {@code
 *       dev.fenceline.spring.FencedMethodInterceptor}, naming the holder and epoch when the issuer
 *       can say), counts {@code fenceline.fenced.runs{outcome=skipped}}, and returns {@code null}
 *       for a {@code void} method or {@link java.util.Optional#empty()} for one that returns {@code
 *       Optional}. Methods that return anything else are refused when the application starts: a
 *       skipped run has no value to give them.
 *   <li><b>Acquired:</b> the method runs on the caller's thread with the lease available from
 *       {@link FencedContext#currentLease()}; the lease is renewed in the background ({@code
 *       fenceline.lease.renew-every}, a third of the ttl by default) and released when the method
 *       returns or throws.
 *   <li><b>Lost while running</b> (a renewal refused because another instance took over, or the
 *       lease's local deadline passed): the method's thread is interrupted. Blocking calls throw
 *       {@link InterruptedException} (or end as the library they are in handles interrupts); {@link
 *       dev.fenceline.core.Fenceline#publish} and {@code register} with the lost lease are refused
 *       before anything is sent. The interrupt is only an efficiency measure: a write the method
 *       still makes with the lost lease's token cannot overwrite a result published or registered
 *       with a newer epoch at a fenced destination, whose epoch check is the guarantee. Until the
 *       newer owner has registered or published there, the destination knows no newer epoch and
 *       applies the stale write: make {@link dev.fenceline.core.Fenceline#register} the method's
 *       first line to cut older owners off at the takeover. The interrupt flag Fenceline set is
 *       cleared when the method ends; an interrupt the thread already had stays. A call that
 *       returns after the lease's local deadline passed counts as lost.
 * </ul>
 *
 * <p>A nested call to a method fenced on the same resource, on the same thread, runs under the
 * outer call's lease. Calls from inside the bean ({@code this.method()}) are not intercepted
 * (Spring AOP proxies); private, final and static methods cannot be and are refused at startup.
 *
 * <p>The lease makes sure only one instance runs the method at a time <em>while it holds the
 * lease</em>; it never makes a write exactly-once across systems. Only writes through a fenced
 * destination (the token's epoch checked there) are safe against an instance that paused past its
 * lease (R10).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Fenced {

  /**
   * The resource whose lease the method runs under, such as {@code nightly-report} ({@link
   * dev.fenceline.spi.ResourceId} rules; checked at startup).
   */
  String resource();
}
