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

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.HeldLease;
import dev.fenceline.core.LeaseLoss;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spi.LeaseStatus;
import dev.fenceline.spi.ResourceId;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Runs a {@link Fenced} method under its lease: acquire or skip, interrupt on loss, release after.
 * See {@link Fenced} for what the method sees.
 */
final class FencedMethodInterceptor implements MethodInterceptor {

  private static final System.Logger LOG =
      System.getLogger(FencedMethodInterceptor.class.getName());

  private final Supplier<Fenceline> fenceline;
  private final Supplier<Optional<LeaseIssuer>> issuer;
  private final Supplier<List<FencedRunListener>> listeners;
  private final Supplier<FencedRuns> runs;
  private final Map<MethodClassKey, FencedMethod> methods = new ConcurrentHashMap<>();

  FencedMethodInterceptor(
      Supplier<Fenceline> fenceline,
      Supplier<Optional<LeaseIssuer>> issuer,
      Supplier<List<FencedRunListener>> listeners,
      Supplier<FencedRuns> runs) {
    this.fenceline = requireNonNull(fenceline, "fenceline is null");
    this.issuer = requireNonNull(issuer, "issuer is null");
    this.listeners = requireNonNull(listeners, "listeners is null");
    this.runs = requireNonNull(runs, "runs is null");
  }

  /** A fenced method: its resource, its name for messages, what a skipped call returns. */
  record FencedMethod(Method method, ResourceId resource, String name, Object whenSkipped) {

    /**
     * Reads and checks {@code method}'s {@link Fenced} annotation.
     *
     * @throws dev.fenceline.spi.ConfigurationException if the method cannot be fenced
     */
    static FencedMethod of(Method method, Fenced fenced) {
      String name = method.getDeclaringClass().getSimpleName() + "." + method.getName() + "()";
      ResourceId resource;
      try {
        resource = ResourceId.of(fenced.resource());
      } catch (IllegalArgumentException e) {
        throw refused(
            name, "its resource is not valid: " + e.getMessage(), "name it like nightly-report");
      }
      int modifiers = method.getModifiers();
      if (java.lang.reflect.Modifier.isStatic(modifiers)
          || java.lang.reflect.Modifier.isPrivate(modifiers)
          || java.lang.reflect.Modifier.isFinal(modifiers)) {
        String kind =
            java.lang.reflect.Modifier.isStatic(modifiers)
                ? "static"
                : java.lang.reflect.Modifier.isPrivate(modifiers) ? "private" : "final";
        throw refused(
            name,
            "it is "
                + kind
                + ", so Spring's proxy cannot intercept its calls and it would run unfenced",
            "make it a public method that is not " + kind);
      }
      Class<?> returns = method.getReturnType();
      Object whenSkipped;
      if (returns == void.class) {
        whenSkipped = null;
      } else if (returns == Optional.class) {
        whenSkipped = Optional.empty();
      } else {
        throw refused(
            name,
            "it returns "
                + method.getGenericReturnType().getTypeName()
                + ", and a call skipped because another instance holds the lease has no value to"
                + " return",
            "return void, or an Optional, which is empty when the call was skipped");
      }
      return new FencedMethod(method, resource, name, whenSkipped);
    }

    private static dev.fenceline.spi.ConfigurationException refused(
        String name, String reason, String fix) {
      return new dev.fenceline.spi.ConfigurationException(
          "Cannot fence " + name + " with @Fenced: " + reason + " (" + fix + ")");
    }
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    FencedMethod fenced = fencedMethod(invocation);
    if (FencedContext.find(fenced.resource()).isPresent()) {
      return invocation.proceed(); // nested: the outer call's lease covers it
    }
    FencedRuns running = runs.get(); // before acquiring: nothing below may strand the lease
    Fenceline client = fenceline.get();
    Optional<HeldLease> acquired = client.tryAcquire(fenced.resource());
    if (acquired.isEmpty()) {
      LOG.log(
          System.Logger.Level.INFO,
          () -> "Skipped " + fenced.name() + ": " + heldElsewhere(fenced, client.holder()));
      ended(fenced, FencedRunListener.Outcome.SKIPPED);
      return fenced.whenSkipped();
    }
    HeldLease lease = acquired.get();
    Call call = new Call(fenced, Thread.currentThread());
    FencedRuns.Run run = new FencedRuns.Run(fenced.method(), call.thread, lease);
    FencedRunListener.Outcome outcome = FencedRunListener.Outcome.FAILED;
    try {
      lease.onLost(call::lost);
      running.started(run);
      Object result = FencedContext.with(lease, invocation::proceed);
      outcome = FencedRunListener.Outcome.COMPLETED;
      return result;
    } finally {
      if (call.end()) {
        Thread.interrupted(); // the only interrupt was ours: the thread goes back clean
      }
      // Lost also when the local deadline passed before the watch said so (a freeze, then the
      // method returned at once): its end was not covered by the lease.
      if (lease.loss().isPresent() || !lease.isLocallyValid()) {
        outcome = FencedRunListener.Outcome.LOST;
      }
      running.ended(run);
      release(fenced, lease);
      ended(fenced, outcome);
    }
  }

  /**
   * The fenced method a call runs, cached per method and target class: behind a JDK proxy the
   * invocation's method is the interface's, shared by every bean that implements it, each with its
   * own {@link Fenced#resource()}.
   */
  private FencedMethod fencedMethod(MethodInvocation invocation) {
    Method method = invocation.getMethod();
    Class<?> target =
        invocation.getThis() == null
            ? method.getDeclaringClass()
            : AopUtils.getTargetClass(invocation.getThis());
    return methods.computeIfAbsent(
        new MethodClassKey(method, target),
        key -> {
          Method specific = AopUtils.getMostSpecificMethod(method, target);
          Fenced annotation = AnnotatedElementUtils.findMergedAnnotation(specific, Fenced.class);
          if (annotation == null) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(method, Fenced.class);
          }
          return FencedMethod.of(specific, requireNonNull(annotation, "no @Fenced on " + method));
        });
  }

  /**
   * Who holds the lease, as far as the issuer says: another instance, or this one ({@code
   * ownHolder}) on another thread. The skip never fails for want of it.
   */
  private String heldElsewhere(FencedMethod fenced, String ownHolder) {
    String text = "another holder has the lease on " + fenced.resource();
    try {
      Optional<LeaseIssuer> known = issuer.get();
      if (known.isEmpty()) {
        return text;
      }
      LeaseStatus status = known.get().status(fenced.resource());
      if (status.holder().filter(ownHolder::equals).isPresent()) {
        text =
            "this instance already runs it on another thread: it has the lease on "
                + fenced.resource();
      }
      return text
          + status.holder().map(holder -> " (" + holder).orElse(" (")
          + (status.holder().isPresent() ? ", " : "")
          + "epoch "
          + status.epoch().value()
          + status.expiresAt().map(at -> ", until " + at + " by the issuer's clock").orElse("")
          + ")";
    } catch (RuntimeException e) {
      return text + " (the issuer could not say who: " + e.getMessage() + ")";
    }
  }

  private static void release(FencedMethod fenced, HeldLease lease) {
    try {
      lease.close();
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Cannot release the lease on "
              + fenced.resource()
              + " at epoch "
              + lease.token().epoch().value()
              + " after "
              + fenced.name()
              + ": "
              + e.getMessage()
              + " (it expires by itself at the issuer)");
    }
  }

  private void ended(FencedMethod fenced, FencedRunListener.Outcome outcome) {
    for (FencedRunListener listener : listeners.get()) {
      try {
        listener.ended(fenced.resource(), fenced.method(), outcome);
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "Fenced-run listener " + listener + " failed for " + fenced.name() + ": " + e,
            e);
      }
    }
  }

  /** One call: interrupts its thread on a loss until the call ends. */
  private static final class Call {
    private final FencedMethod fenced;
    private final Thread thread;
    private boolean ended;
    private boolean interrupted;

    Call(FencedMethod fenced, Thread thread) {
      this.fenced = fenced;
      this.thread = thread;
    }

    synchronized void lost(LeaseLoss loss) {
      if (ended) {
        return;
      }
      // An interrupt already pending (a scheduler's cancel, a shutdown) is not Fenceline's: it
      // stays when the call ends, and this call adds none of its own.
      boolean pending = thread.isInterrupted();
      LOG.log(
          System.Logger.Level.WARNING,
          loss.describe()
              + " while "
              + fenced.name()
              + " runs: "
              + (pending ? "its thread " : "interrupting its thread ")
              + thread.getName()
              + (pending ? " is already interrupted" : "")
              + "; its writes with this lease cannot overwrite a result published or registered"
              + " with a newer epoch at fenced destinations");
      if (!pending) {
        interrupted = true;
        thread.interrupt();
      }
    }

    /**
     * Ends the call: no interrupt after this. True if this call interrupted its thread and the
     * thread was not interrupted by anyone else before.
     */
    synchronized boolean end() {
      ended = true;
      return interrupted;
    }
  }
}
