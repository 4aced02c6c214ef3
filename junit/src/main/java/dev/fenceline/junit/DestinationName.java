package dev.fenceline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the destination an injected {@link InMemoryDestination} parameter is:
 * {@code @DestinationName("reports") InMemoryDestination<String> reports} is {@link
 * FencelineLab#destination(String) lab.destination("reports")}. Without it, the destination is
 * named {@value FencelineExtension#DEFAULT_DESTINATION}.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DestinationName {

  /** The destination name (see {@link dev.fenceline.spi.Destination#NAME}). */
  String value();
}
