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

import dev.fenceline.core.Fenceline;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LeaseIssuer;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Proxies every bean with {@link Fenced} methods so that their calls run under the lease (see
 * {@link Fenced}), as Spring's {@code MethodValidationPostProcessor} does for validated methods: no
 * AspectJ weaver. Each fenced method is checked when its bean is created, and a method that cannot
 * be fenced stops the application from starting with the reason and the fix. The proxy is a
 * subclass of the bean's class, so {@code @Scheduled} runs go through it; the lease is taken
 * outside any other advice of the bean (such as a transaction).
 */
public final class FencedAdvisingPostProcessor
    extends AbstractBeanFactoryAwareAdvisingPostProcessor {

  private static final long serialVersionUID = 1L;

  private transient ListableBeanFactory beans;

  /**
   * A post-processor whose proxies run fenced calls through {@code fenceline}.
   *
   * @param fenceline the application's {@link Fenceline}, looked up at the first call
   * @param issuer its issuer, if known, to name the holder when a call is skipped
   * @param listeners who hears how each call ended
   * @param runs where the running calls are kept, looked up at the first call
   */
  public FencedAdvisingPostProcessor(
      Supplier<Fenceline> fenceline,
      Supplier<Optional<LeaseIssuer>> issuer,
      Supplier<List<FencedRunListener>> listeners,
      Supplier<FencedRuns> runs) {
    this.advisor =
        new DefaultPointcutAdvisor(
            new AnnotationMatchingPointcut(null, Fenced.class, true),
            new FencedMethodInterceptor(fenceline, issuer, listeners, runs));
    setProxyTargetClass(true);
    setBeforeExistingAdvisors(true);
    // Ahead of ScheduledAnnotationBeanPostProcessor (LOWEST_PRECEDENCE), which keeps the bean it
    // is given. On Spring 7.0 scheduled runs were fenced at equal order too (FencedMethodTest's
    // two scheduling tests stayed green with it): this makes the order explicit, not load-bearing.
    setOrder(Ordered.LOWEST_PRECEDENCE - 10);
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    super.setBeanFactory(beanFactory);
    this.beans = beanFactory instanceof ListableBeanFactory listable ? listable : null;
  }

  /**
   * Checks the bean's {@link Fenced} methods, then proxies it.
   *
   * @throws ConfigurationException if a method cannot be fenced (private, final, static, returning
   *     a value other than {@code Optional}, an invalid resource), or there is no {@link Fenceline}
   *     bean
   */
  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
    Map<Method, Fenced> fenced =
        MethodIntrospector.selectMethods(
            type,
            (MethodIntrospector.MetadataLookup<Fenced>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, Fenced.class));
    if (!fenced.isEmpty()) {
      for (Map.Entry<Method, Fenced> method : fenced.entrySet()) {
        FencedMethodInterceptor.FencedMethod.of(method.getKey(), method.getValue());
      }
      if (beans != null && beans.getBeanNamesForType(Fenceline.class, true, false).length == 0) {
        FencedMethodInterceptor.FencedMethod any =
            FencedMethodInterceptor.FencedMethod.of(
                fenced.keySet().iterator().next(), fenced.values().iterator().next());
        throw new ConfigurationException(
            "Cannot fence "
                + any.name()
                + " with @Fenced: the application has no Fenceline bean (configure fenceline.* as"
                + " in fenceline.yaml, give the application a DataSource, or define a Fenceline"
                + " bean)");
      }
    }
    return super.postProcessAfterInitialization(bean, beanName);
  }
}
