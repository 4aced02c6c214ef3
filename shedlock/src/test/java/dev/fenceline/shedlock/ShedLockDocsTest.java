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
package dev.fenceline.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fenceline.jdbc.JdbcStore;
import dev.fenceline.spi.Epoch;
import dev.fenceline.spi.Pointer;
import dev.fenceline.spi.PointerState;
import dev.fenceline.spi.ResourceId;
import dev.fenceline.tck.ReadmeExamples;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The Java blocks of {@code docs/shedlock.md}, as a reader copies them: they compile, imports
 * included; they name the artifacts of their Fenceline imports; and the two Spring classes run in
 * an application context, where the job runs under our lock and writes with its token.
 */
@ExtendWith(FreshThreadPerTest.class)
class ShedLockDocsTest {

  private static final ResourceId NIGHTLY = ResourceId.of("nightly-report");

  private final ReadmeExamples page =
      ReadmeExamples.load(ReadmeExamples.repositoryRoot().resolve("docs/shedlock.md"));

  @TempDir Path directory;

  @Test
  void everyJavaBlockCompilesAsItStandsImportsIncluded() throws IOException {
    List<ReadmeExamples.Block> blocks =
        page.blocks().stream().filter(block -> !block.skeleton()).toList();
    assertThat(blocks).hasSize(3);

    assertThat(ReadmeExamples.compileAll(blocks, directory.resolve("all"))).isEmpty();
  }

  @Test
  void everyJavaBlockStartsWithItsImportsAndNamesTheirArtifacts() {
    assertThat(page.importProblems()).isEmpty();
  }

  @Test
  void theSpringExampleRunsTheJobUnderOurLockAndSkipsItWhileAnotherInstanceHoldsIt()
      throws Exception {
    Path database = directory.resolve("fenceline.db");
    ReadmeExamples.Block config =
        page.containing("public class SchedulerConfig")
            .replacing(
                Map.of("Path.of(\"fenceline.db\")", "Path.of(\"" + database.toString() + "\")"));
    ReadmeExamples.Block job = page.containing("public class NightlyReportJob");
    Path compiled = directory.resolve("spring");
    assertThat(ReadmeExamples.compileAll(List.of(config, job), compiled)).isEmpty();

    try (URLClassLoader loader =
            new URLClassLoader(
                new URL[] {compiled.resolve("classes").toUri().toURL()},
                getClass().getClassLoader());
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
      context.setClassLoader(loader);
      Class<?> jobClass = loader.loadClass(job.className());
      context.register(loader.loadClass(config.className()), jobClass);
      context.refresh();
      JdbcStore store = context.getBean(JdbcStore.class);
      Object nightlyReportJob = context.getBean(jobClass);
      Method publish = jobClass.getMethod("publish");

      // Another instance holds the lock: ShedLock skips the run, nothing is written.
      SimpleLock elsewhere =
          new FencelineLockProvider(store.leaseIssuer(), "other-instance")
              .lock(
                  new LockConfiguration(
                      ClockProvider.now(), "nightly-report", Duration.ofMinutes(10), Duration.ZERO))
              .orElseThrow();
      publish.invoke(nightlyReportJob);
      assertThat(store.pointerStore("reports").current(NIGHTLY)).isEmpty();
      elsewhere.unlock();

      publish.invoke(nightlyReportJob);

      PointerState published = store.pointerStore("reports").current(NIGHTLY).orElseThrow();
      assertThat(published.pointer()).isEqualTo(Pointer.to("42 orders"));
      assertThat(published.epoch()).isEqualTo(Epoch.of(2)); // the job's own lock, after the other's
      assertThat(store.leaseIssuer().status(NIGHTLY).held()).isFalse();
      assertThat(FencelineLocks.currentToken()).isEmpty();
    }
  }

  @Test
  void theKeepAliveExampleWrapsOurProviderAndKeepsItsToken() throws Exception {
    Class<?> example =
        page.containing("static LockProvider keptAlive(LeaseIssuer issuer)").compile();

    try (JdbcStore store = JdbcStore.sqlite(directory.resolve("keep-alive.db"))) {
      LockProvider provider =
          (LockProvider) ReadmeExamples.call(example, "keptAlive", store.leaseIssuer());
      SimpleLock lock =
          provider
              .lock(
                  new LockConfiguration(
                      ClockProvider.now(), "nightly-report", Duration.ofMinutes(1), Duration.ZERO))
              .orElseThrow();
      assertThat(store.leaseIssuer().status(NIGHTLY).held()).isTrue();
      lock.unlock();
      assertThat(store.leaseIssuer().status(NIGHTLY).held()).isFalse();
    }
  }
}
