package dev.fenceline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class whose tests get a {@link FencelineLab} and its parts as parameters: the same
 * as {@code @ExtendWith(FencelineExtension.class)}. See {@link FencelineExtension} for what can be
 * injected.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(FencelineExtension.class)
public @interface FencelineTest {}
