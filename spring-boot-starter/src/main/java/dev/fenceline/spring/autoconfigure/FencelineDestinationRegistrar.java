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
package dev.fenceline.spring.autoconfigure;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.Destination;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link ConfiguredDestination} bean per {@code fenceline.destinations.<name>}, named
 * {@code <name>} (inject it with {@code @Qualifier("<name>")}), built by the {@link
 * FencelineConfig} bean. A destination bean of that name the application defines itself (a {@link
 * ConfiguredDestination} or a {@link Destination}) is left in place; a bean of that name of any
 * other type (such as {@code fenceline}, the {@link dev.fenceline.core.Fenceline} bean) stops the
 * application.
 */
final class FencelineDestinationRegistrar
    implements ImportBeanDefinitionRegistrar, EnvironmentAware {

  private ConfigurableEnvironment environment;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = (ConfigurableEnvironment) environment;
  }

  @Override
  public void registerBeanDefinitions(
      AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
    BeanFactory beans = (BeanFactory) registry;
    for (String name : SpringConfigTree.names(environment, "destinations")) {
      if (registry.containsBeanDefinition(name)) {
        Class<?> type = beanType(registry, name);
        if (type == null
            || ConfiguredDestination.class.isAssignableFrom(type)
            || Destination.class.isAssignableFrom(type)) {
          continue; // the application's own destination of that name wins
        }
        throw new ConfigurationException(
            "Cannot register destination "
                + name
                + " as a bean: the application has a bean of that name ("
                + type.getName()
                + ") (rename one)");
      }
      RootBeanDefinition destination = new RootBeanDefinition(ConfiguredDestination.class);
      destination.setInstanceSupplier(() -> beans.getBean(FencelineConfig.class).destination(name));
      registry.registerBeanDefinition(name, destination);
    }
  }

  /** The type of bean {@code name} as far as its definition says, without creating it; or null. */
  private static Class<?> beanType(BeanDefinitionRegistry registry, String name) {
    return registry instanceof ConfigurableListableBeanFactory beans
        ? beans.getType(name, false)
        : null;
  }
}
