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
