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
package dev.fenceline.chaos.planted;

import dev.fenceline.chaos.ChaosTargetFactory;
import dev.fenceline.chaos.junit.ChaosContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The chaos contract as an adapter author uses it, on the planted-bug target without a bug: its
 * inherited test passes (every check PASS under pauses and kills), in the same run as {@link
 * PlantedBugsChaosTest}'s.
 */
class PlantedNoneChaosTest extends ChaosContract {

  @Override
  protected Class<? extends ChaosTargetFactory> targetFactory() {
    return PlantedBugTargetFactory.class;
  }

  @Override
  protected Map<String, String> settings(Path dir) {
    return PlantedBugsChaosTest.settingsOf(PlantedBug.NONE, dir);
  }

  // The same run as each planted bug's, so that its pass means the same thing as their failures.

  @Override
  protected Duration duration() {
    return PlantedBugsChaosTest.DURATION;
  }

  @Override
  protected Duration leaseTtl() {
    return PlantedBugsChaosTest.LEASE_TTL;
  }

  @Override
  protected Duration faultEvery() {
    return PlantedBugsChaosTest.FAULT_EVERY;
  }

  @Override
  protected int resources() {
    return PlantedBugsChaosTest.RESOURCES;
  }

  @Override
  protected int threads() {
    return PlantedBugsChaosTest.THREADS;
  }

  @Override
  protected List<String> jvmOptions() {
    return PlantedBugsChaosTest.JVM_OPTIONS;
  }
}
