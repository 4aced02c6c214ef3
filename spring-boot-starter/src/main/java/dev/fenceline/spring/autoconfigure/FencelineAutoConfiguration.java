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
import dev.fenceline.core.Fenceline;
import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Adapter;
import dev.fenceline.spi.ConfigurationException;
import dev.fenceline.spi.LeaseIssuer;
import dev.fenceline.spring.Fenced;
import dev.fenceline.spring.FencedAdvisingPostProcessor;
import dev.fenceline.spring.FencedRunListener;
import dev.fenceline.spring.FencedRuns;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Fenceline's beans from the {@code fenceline.*} properties, which are the tree of {@code
 * fenceline.yaml} (read and checked by {@code fenceline-config}, with its messages), on the
 * application's {@link DataSource} by default. Every bean backs off when the application defines
 * its own of the same type (or, for a destination, of the same name):
 *
 * <ul>
 *   <li>{@link JdbcStore} {@code fencelineApplicationStore}: the application's single {@link
 *       DataSource} as the store {@code application} (Fenceline's tables next to the
 *       application's), created when first used, so an application whose stores are all configured
 *       explicitly gets no tables in its database;
 *   <li>{@link FencelineConfig} {@code fencelineConfig}: the configuration, with the store {@code
 *       application} beside the configured ones and {@code fenceline.issuer} defaulting to it;
 *   <li>{@link LeaseIssuer} {@code fencelineLeaseIssuer}: the issuer of the {@code issuer} store;
 *   <li>{@link Fenceline} {@code fenceline}: lease ttl, renewal, holder and {@code allow-*} from
 *       the configuration (holder default: {@code host:pid}, unique per application instance);
 *   <li>one {@link ConfiguredDestination} per {@code fenceline.destinations.<name>}, named {@code
 *       <name>}: inject it with {@code @Qualifier("<name>")};
 *   <li>{@link FencedRuns} and the {@link FencedAdvisingPostProcessor} that runs {@link Fenced}
 *       methods under their lease.
 * </ul>
 *
 * Closing the context closes the {@link Fenceline}, the configuration's stores and the application
 * store.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Import(FencelineDestinationRegistrar.class)
public class FencelineAutoConfiguration {

  /** The name of the store on the application's {@link DataSource}. */
  public static final String APPLICATION_STORE = "application";

  /** How messages name the application store. */
  static final String APPLICATION_STORE_DESCRIPTION = "the application's DataSource";

  /**
   * The application's {@link DataSource} as a Fenceline store: created (and its tables created or
   * migrated) only when the configuration first uses the store {@code application}.
   */
  @Bean
  @Lazy
  @ConditionalOnSingleCandidate(DataSource.class)
  @ConditionalOnMissingBean(JdbcStore.class)
  public JdbcStore fencelineApplicationStore(DataSource dataSource) {
    return JdbcStore.builder().dataSource(dataSource, APPLICATION_STORE_DESCRIPTION).build();
  }

  /**
   * The configuration from the {@code fenceline.*} properties; with the application's single {@link
   * JdbcStore} bean as the store {@code application}, the default issuer.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public FencelineConfig fencelineConfig(
      ConfigurableEnvironment environment,
      ConfigurableListableBeanFactory beans,
      ObjectProvider<Fenceline> fenceline) {
    FencelineConfig.Loader loader =
        FencelineConfig.loader(SpringConfigTree.read(environment))
            .environment(environment::getProperty)
            .fenceline(fenceline::getObject);
    String[] stores = beans.getBeanNamesForType(JdbcStore.class, true, false);
    if (stores.length == 0 && SpringConfigTree.names(environment, "stores").isEmpty()) {
      refuseAmbiguousDataSources(beans);
    }
    if (stores.length == 1) {
      String store = stores[0];
      loader
          .store(
              APPLICATION_STORE,
              "jdbc",
              APPLICATION_STORE_DESCRIPTION,
              () -> applicationAdapter(beans.getBean(store, JdbcStore.class)))
          .defaultIssuer(APPLICATION_STORE);
    }
    return loader.load();
  }

  /**
   * Refuses several {@link DataSource} beans with none {@code @Primary} when no store is
   * configured: the store {@code application} cannot choose, and the configuration would fail only
   * with "no store is configured".
   */
  private static void refuseAmbiguousDataSources(ConfigurableListableBeanFactory beans) {
    String[] dataSources = beans.getBeanNamesForType(DataSource.class, true, false);
    if (dataSources.length < 2) {
      return;
    }
    for (String name : dataSources) {
      if (beans.containsBeanDefinition(name) && beans.getBeanDefinition(name).isPrimary()) {
        return;
      }
    }
    throw new ConfigurationException(
        "Cannot make the store application from the application's DataSource: the application has "
            + dataSources.length
            + " DataSource beans ("
            + String.join(", ", dataSources)
            + ") and none is @Primary (mark the one Fenceline should use @Primary, define a"
            + " JdbcStore bean on it, or configure fenceline.stores and fenceline.issuer)");
  }

  /** The components of the application store; the container closes the store itself. */
  private static Adapter applicationAdapter(JdbcStore store) {
    return Adapter.builder(() -> {})
        .leaseIssuer(store.leaseIssuer())
        .pointerStores(store::pointerStore)
        .intentStores(store::intentStore)
        .build();
  }

  /** The lease issuer of the configuration's {@code issuer} store. */
  @Bean
  @ConditionalOnMissingBean
  public LeaseIssuer fencelineLeaseIssuer(FencelineConfig config) {
    return config.issuer();
  }

  /** The application's {@link Fenceline}, on its {@link LeaseIssuer} bean. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Fenceline fenceline(FencelineConfig config, LeaseIssuer issuer) {
    return config.fencelineBuilder(issuer).build();
  }

  /** The {@link Fenced} calls running now, for the health indicator. */
  @Bean
  @ConditionalOnMissingBean
  public FencedRuns fencedRuns() {
    return new FencedRuns();
  }

  /**
   * When the context closes, interrupts the running {@link Fenced} calls and waits (up to {@link
   * FencedRunsShutdown#WAIT}) for them to release their leases, before the {@link Fenceline} bean
   * is closed: stopped as a {@link org.springframework.context.SmartLifecycle} in the last phase,
   * ahead of every bean's destruction.
   */
  @Bean
  public FencedRunsShutdown fencedRunsShutdown(FencedRuns runs) {
    return new FencedRunsShutdown(runs);
  }

  /** Runs {@link Fenced} methods under their lease. */
  @Bean
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  @ConditionalOnMissingBean
  public static FencedAdvisingPostProcessor fencedAdvisingPostProcessor(
      ObjectProvider<Fenceline> fenceline,
      ObjectProvider<LeaseIssuer> issuer,
      ObjectProvider<FencedRunListener> listeners,
      ObjectProvider<FencedRuns> runs) {
    return new FencedAdvisingPostProcessor(
        fenceline::getObject,
        () -> Optional.ofNullable(issuer.getIfUnique()),
        () -> listeners.orderedStream().toList(),
        () -> runs.getIfAvailable(FencedRuns::new));
  }
}
