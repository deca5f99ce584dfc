package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/** The error classes of invalid connector options, shared by every connector's catalog. */
@PublicEvolving
public enum OptionErrorClass implements ErrorClass {
  /** A key that is no option of the connector (the message names the closest valid one). */
  UNKNOWN_OPTION,
  /** A value that does not parse to the option's type or is outside its allowed values. */
  INVALID_OPTION_VALUE,
  /** A required option is not given (or is blank). */
  MISSING_OPTION,
  /** Options that cannot be combined, or one given twice in different case. */
  CONFLICTING_OPTIONS,
  /** A pass-through key the connector owns itself (e.g. {@code kafka.auto.offset.reset}). */
  UNSUPPORTED_OPTION
}
