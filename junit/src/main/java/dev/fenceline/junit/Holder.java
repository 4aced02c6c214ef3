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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the worker an injected {@link dev.fenceline.core.Fenceline} parameter is:
 * {@code @Holder("worker-a") Fenceline a} is {@link FencelineLab#worker(String)
 * lab.worker("worker-a")}. Without it, the worker is named {@value
 * FencelineExtension#DEFAULT_HOLDER}.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Holder {

  /** The holder name, as {@link dev.fenceline.core.Fenceline.Builder#holder} takes it. */
  String value();
}
