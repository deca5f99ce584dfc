package io.lakestream.sql.connector.delta;

import io.lakestream.connectors.delta.sink.DeltaSinkOptions;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.options.OptionValues;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Delta table's settings from its SQL options, checked: the options split into the source's and
 * the sink's (each builder checks its own again, with its rules), Hadoop settings and table
 * properties.
 *
 * @param name the table's identifier, e.g. {@code default_catalog.default_database.orders}
 * @param path the table's location
 * @param sourceOptions the Delta source's options, as given
 * @param mergeSchema the sink's {@code mergeSchema}
 * @param hadoopConf Hadoop settings for the table's file system
 * @param properties table properties ({@code delta.*}) for a table the sink creates
 */
record DeltaTableSettings(
    String name,
    String path,
    Map<String, String> sourceOptions,
    boolean mergeSchema,
    Map<String, String> hadoopConf,
    Map<String, String> properties)
    implements Serializable {

  static DeltaTableSettings of(
      String name,
      String path,
      Map<String, String> given,
      OptionValues values,
      Map<String, String> hadoopDefaults) {
    Map<String, String> source = new LinkedHashMap<>();
    given.forEach(
        (key, value) -> {
          if (DeltaSourceOptions.CATALOG.find(key).isPresent()) {
            source.put(key, value);
          }
        });
    Map<String, String> properties = new LinkedHashMap<>();
    values
        .passThrough(DeltaSqlOptions.DELTA_PROPERTY_PREFIX)
        .forEach(
            (key, value) -> properties.put(DeltaSqlOptions.DELTA_PROPERTY_PREFIX + key, value));
    Map<String, String> hadoop = new LinkedHashMap<>(hadoopDefaults);
    hadoop.putAll(values.passThrough(DeltaSqlOptions.HADOOP_PREFIX));
    return new DeltaTableSettings(
        name,
        path,
        Map.copyOf(source),
        values.get(DeltaSinkOptions.MERGE_SCHEMA),
        Map.copyOf(hadoop),
        Map.copyOf(properties));
  }
}
