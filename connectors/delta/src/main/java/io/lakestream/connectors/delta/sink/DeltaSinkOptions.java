package io.lakestream.connectors.delta.sink;

import java.util.List;
import java.util.Locale;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The string options of the Delta sink, under Spark's names, for {@link
 * DeltaSinkBuilder#option(String, String)}. Keys are matched ignoring case, as Spark does.
 */
public final class DeltaSinkOptions {

  /** Spark's {@code mergeSchema}: add new nullable declared columns to an existing table. */
  public static final ConfigOption<Boolean> MERGE_SCHEMA =
      ConfigOptions.key("mergeSchema")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "When true, declared columns that the existing Delta table lacks are added to it"
                  + " (nullable, at the end; rows already in the table read NULL in them) before"
                  + " the first epoch is written. Type changes, dropped or renamed columns,"
                  + " nullability changes and partition changes stay errors. Delta Kernel needs"
                  + " column mapping for schema changes: new tables get"
                  + " delta.columnMapping.mode=name, existing ones are switched to it when a column"
                  + " is added. When false, any difference from the table's schema is an error.");

  /** All options, for error messages. */
  public static final List<ConfigOption<?>> ALL = List.of(MERGE_SCHEMA);

  private DeltaSinkOptions() {}

  /** The option with {@code key} (ignoring case). */
  static ConfigOption<?> find(String key) {
    for (ConfigOption<?> option : ALL) {
      if (option.key().toLowerCase(Locale.ROOT).equals(key.trim().toLowerCase(Locale.ROOT))) {
        return option;
      }
    }
    throw new IllegalArgumentException(
        "Unknown Delta sink option '"
            + key
            + "'; valid options: "
            + ALL.stream().map(ConfigOption::key).toList());
  }

  /** Parses a boolean option value strictly ({@code true} or {@code false}, any case). */
  static boolean parseBoolean(ConfigOption<?> option, String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new IllegalArgumentException(
        "Delta sink option " + option.key() + " must be true or false, was '" + value + "'");
  }
}
