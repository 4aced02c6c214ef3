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
package dev.fenceline.junit;

import static java.util.Objects.requireNonNull;

import dev.fenceline.core.Fenceline;
import dev.fenceline.core.MonotonicClock;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.tck.PausePoints;
import dev.fenceline.tck.memory.InMemoryLeaseIssuer;
import dev.fenceline.tck.memory.MutableClock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test its own {@link FencelineLab} and injects it, or its parts, as parameters of test
 * methods, lifecycle methods and test-class constructors:
 *
 * <ul>
 *   <li>{@link FencelineLab}: the lab itself;
 *   <li>{@link LeaseIssuer} or {@link InMemoryLeaseIssuer}: {@link FencelineLab#issuer()};
 *   <li>{@link MutableClock}: {@link FencelineLab#clock()}; {@link MonotonicClock}: {@link
 *       FencelineLab#monotonicClock()};
 *   <li>{@link PausePoints}: {@link FencelineLab#pausePoints()};
 *   <li>{@link Fenceline}: the worker {@link FencelineLab#worker(String)} named by {@link Holder}
 *       ({@value #DEFAULT_HOLDER} without it);
 *   <li>{@link InMemoryDestination}: {@link FencelineLab#destination(String)} named by {@link
 *       DestinationName} ({@value #DEFAULT_DESTINATION} without it).
 * </ul>
 *
 * <p>One lab per test: the parameters of a test method, of its {@code @BeforeEach} and
 * {@code @AfterEach} methods and of the constructor of its test instance (the default lifecycle)
 * are parts of the same lab, and no other test sees it. The lab is closed after the test, after its
 * {@code @AfterEach} methods ({@link FencelineLab#close()}: pauses resumed, threads stopped,
 * workers closed), and a clean-up problem fails the test. A lab injected into a {@code @BeforeAll}
 * method, or into the constructor of a {@code @TestInstance(PER_CLASS)} class, belongs to the class
 * and is shared by its tests.
 *
 * <p>Needs JUnit Jupiter 5.12 or newer; the lab is closed on 5.12 too (as a {@code
 * CloseableResource}), not only where JUnit closes {@code AutoCloseable} store values (5.13+).
 */
public final class FencelineExtension implements ParameterResolver {

  /** The holder of an injected {@link Fenceline} without {@link Holder}. */
  public static final String DEFAULT_HOLDER = "worker";

  /** The name of an injected {@link InMemoryDestination} without {@link DestinationName}. */
  public static final String DEFAULT_DESTINATION = "destination";

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FencelineExtension.class);

  private static final Set<Class<?>> INJECTED =
      Set.of(
          FencelineLab.class,
          LeaseIssuer.class,
          InMemoryLeaseIssuer.class,
          MutableClock.class,
          MonotonicClock.class,
          PausePoints.class,
          Fenceline.class,
          InMemoryDestination.class);

  private final Duration stopTimeout;

  /** The extension, as {@code @ExtendWith} and {@link FencelineTest} create it. */
  public FencelineExtension() {
    this(FencelineLab.STOP_TIMEOUT);
  }

  /** An extension whose labs wait up to {@code stopTimeout} for each thread at clean-up. */
  FencelineExtension(Duration stopTimeout) {
    this.stopTimeout = requireNonNull(stopTimeout, "stopTimeout is null");
  }

  /**
   * Constructor parameters of a test instance are resolved in the test's own context, so that they
   * are parts of the test's lab (JUnit otherwise resolves them in the class's context).
   */
  @Override
  public ExtensionContextScope getTestInstantiationExtensionContextScope(
      ExtensionContext rootContext) {
    return ExtensionContextScope.TEST_METHOD;
  }

  /**
   * True for the types listed in the class comment, and for any parameter annotated {@link Holder}
   * or {@link DestinationName} (a misplaced annotation is then refused with a clear message).
   */
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return INJECTED.contains(parameter.getParameter().getType())
        || parameter.isAnnotated(Holder.class)
        || parameter.isAnnotated(DestinationName.class);
  }

  /** The test's lab, or the part of it the parameter's type names. */
  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    requireAnnotationFits(parameter, Holder.class, Fenceline.class);
    requireAnnotationFits(parameter, DestinationName.class, InMemoryDestination.class);
    FencelineLab lab = lab(context);
    try {
      if (type == Fenceline.class) {
        return lab.worker(
            parameter.findAnnotation(Holder.class).map(Holder::value).orElse(DEFAULT_HOLDER));
      }
      if (type == InMemoryDestination.class) {
        return lab.destination(
            parameter
                .findAnnotation(DestinationName.class)
                .map(DestinationName::value)
                .orElse(DEFAULT_DESTINATION));
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterResolutionException(
          "Cannot inject " + describe(parameter) + ": " + e.getMessage(), e);
    }
    if (type == FencelineLab.class) {
      return lab;
    }
    if (type == LeaseIssuer.class || type == InMemoryLeaseIssuer.class) {
      return lab.issuer();
    }
    if (type == MutableClock.class) {
      return lab.clock();
    }
    if (type == MonotonicClock.class) {
      return lab.monotonicClock();
    }
    return lab.pausePoints();
  }

  private static void requireAnnotationFits(
      ParameterContext parameter,
      Class<? extends java.lang.annotation.Annotation> annotation,
      Class<?> type) {
    if (parameter.isAnnotated(annotation) && parameter.getParameter().getType() != type) {
      throw new ParameterResolutionException(
          "Cannot inject "
              + describe(parameter)
              + ": @"
              + annotation.getSimpleName()
              + " names a "
              + type.getSimpleName()
              + ", not a "
              + parameter.getParameter().getType().getSimpleName()
              + " (declare the parameter as "
              + type.getSimpleName()
              + ")");
    }
  }

  private static String describe(ParameterContext parameter) {
    return "parameter "
        + parameter.getIndex()
        + " ("
        + parameter.getParameter().getType().getSimpleName()
        + ") of "
        + parameter.getDeclaringExecutable().getName();
  }

  /** The lab of the test (or class) {@code context} belongs to, made on first use. */
  private FencelineLab lab(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            LabInStore.class,
            key -> new LabInStore(new FencelineLab(stopTimeout)),
            LabInStore.class)
        .lab();
  }

  /**
   * The store's value: JUnit closes it when the test's (or class's) context ends, as an {@link
   * AutoCloseable} (JUnit 5.13 and later, unless {@code
   * junit.jupiter.extensions.store.close.autocloseable.enabled} is false) or else as a {@link
   * ExtensionContext.Store.CloseableResource} (JUnit 5.12, or that setting false). JUnit closes a
   * value that is both only once.
   */
  @SuppressWarnings("deprecation") // CloseableResource: what JUnit before 5.13 closes
  private record LabInStore(FencelineLab lab)
      implements AutoCloseable, ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      lab.close();
    }
  }
}
