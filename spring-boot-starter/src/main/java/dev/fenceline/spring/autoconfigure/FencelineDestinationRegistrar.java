package dev.fenceline.spring.autoconfigure;

import dev.fenceline.config.ConfiguredDestination;
import dev.fenceline.config.FencelineConfig;
import org.springframework.beans.factory.BeanFactory;
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
 * FencelineConfig} bean. A bean of that name the application defines itself is left in place.
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
        continue; // the application's own bean of that name wins
      }
      RootBeanDefinition destination = new RootBeanDefinition(ConfiguredDestination.class);
      destination.setInstanceSupplier(() -> beans.getBean(FencelineConfig.class).destination(name));
      registry.registerBeanDefinition(name, destination);
    }
  }
}
