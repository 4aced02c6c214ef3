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

import dev.fenceline.spring.autoconfigure.FencelineAutoConfiguration;
import dev.fenceline.spring.autoconfigure.FencelineHealthAutoConfiguration;
import dev.fenceline.spring.autoconfigure.FencelineMetricsAutoConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/** Application contexts with the starter's auto-configuration, as a Boot application gets them. */
public final class TestApps {

  private TestApps() {}

  /** The starter's auto-configurations, without a DataSource. */
  public static ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                FencelineAutoConfiguration.class,
                FencelineHealthAutoConfiguration.class,
                FencelineMetricsAutoConfiguration.class));
  }

  /** {@link #runner()} with Boot's DataSource auto-configuration on SQLite file {@code app.db}. */
  public static ApplicationContextRunner onSqlite(Path directory) {
    return onDataSource("spring.datasource.url=" + sqliteUrl(directory));
  }

  /** {@link #runner()} with Boot's DataSource auto-configuration and these properties. */
  public static ApplicationContextRunner onDataSource(String... properties) {
    return runner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
        .withPropertyValues(properties);
  }

  public static String sqliteUrl(Path directory) {
    return "jdbc:sqlite:" + directory.resolve("app.db");
  }

  /**
   * {@code yaml} as Spring Boot loads {@code application.yaml}: every value remembers its line and
   * column in {@code class path resource [application.yaml]}-like origins ({@code byte array
   * resource [application.yaml]} here).
   */
  public static ApplicationContextRunner withYaml(ApplicationContextRunner runner, String yaml) {
    List<PropertySource<?>> sources;
    try {
      sources =
          new YamlPropertySourceLoader()
              .load("application.yaml", new ByteArrayResource(yaml.getBytes(), "application.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return runner.withInitializer(
        context -> sources.forEach(context.getEnvironment().getPropertySources()::addFirst));
  }

  /** The names of the tables of {@code dataSource}'s database (SQLite). */
  public static List<String> sqliteTables(DataSource dataSource) {
    return strings(dataSource, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  }

  /** The first column of what {@code query} answers on {@code dataSource}. */
  public static List<String> strings(DataSource dataSource, String query) {
    List<String> values = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        ResultSet rows = connection.createStatement().executeQuery(query)) {
      while (rows.next()) {
        values.add(rows.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return values;
  }

  /** A staged destination {@code reports} on directory {@code reports} under {@code directory}. */
  public static String[] reportsDestination(Path directory) {
    return new String[] {
      "fenceline.stores.reports-dir.type=vfs",
      "fenceline.stores.reports-dir.uri=" + directory.resolve("reports"),
      "fenceline.destinations.reports.store=reports-dir"
    };
  }
}
