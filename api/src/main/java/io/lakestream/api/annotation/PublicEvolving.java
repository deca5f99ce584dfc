package io.lakestream.api.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type or member users build on: builders, options, query API, error classes. It may gain members
 * between minor releases; it does not change meaning or lose members without a deprecation first.
 */
@PublicEvolving
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface PublicEvolving {}
