package io.lakestream.connectors.autoloader.schema;

import io.lakestream.api.annotation.Internal;
import java.util.Locale;

/**
 * What happens when a file has a column the schema does not ({@code
 * cloudFiles.schemaEvolutionMode}), as in Databricks Auto Loader.
 */
@Internal
public enum SchemaEvolutionMode {
  /**
   * Record the schema with the new columns in the schema history, then stop the stream with {@link
   * UnknownFieldException}; the restarted stream reads the new schema. Default for an inferred
   * schema.
   */
  ADD_NEW_COLUMNS("addNewColumns"),
  /** Never evolve and never fail: unknown and mistyped fields go to {@code _rescued_data}. */
  RESCUE("rescue"),
  /** Stop the stream with {@link UnknownFieldException} without changing the schema. */
  FAIL_ON_NEW_COLUMNS("failOnNewColumns"),
  /** Ignore new columns; no rescued data column. Default for a given schema. */
  NONE("none");

  private final String optionValue;

  SchemaEvolutionMode(String optionValue) {
    this.optionValue = optionValue;
  }

  /** The option value, e.g. {@code addNewColumns}. */
  public String optionValue() {
    return optionValue;
  }

  /**
   * @throws IllegalArgumentException naming the valid values
   */
  public static SchemaEvolutionMode of(String value) {
    for (SchemaEvolutionMode mode : values()) {
      if (mode.optionValue.toLowerCase(Locale.ROOT).equals(value.trim().toLowerCase(Locale.ROOT))) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "Auto Loader option cloudFiles.schemaEvolutionMode='"
            + value
            + "' is not valid; use addNewColumns, rescue, failOnNewColumns or none");
  }
}
