package io.lakestream.connectors.schema;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/** The error classes of the schema model and of the connectors' type converters. */
@PublicEvolving
public enum SchemaErrorClass implements ErrorClass {
  /**
   * A type that a connector cannot write or read (the message names the column and the types it
   * supports), or type text that names no known type.
   */
  UNSUPPORTED_DATA_TYPE,
  /** A decimal whose precision or scale is out of range. */
  INVALID_DECIMAL,
  /** Type text that does not parse, e.g. {@code ARRAY<INT}. */
  INVALID_TYPE_SYNTAX,
  /** Two columns (or struct fields) with the same name. */
  DUPLICATE_COLUMN
}
