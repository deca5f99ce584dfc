package io.lakestream.sql.connector.delta;

import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceOptions;
import io.lakestream.connectors.delta.sink.DeltaSinkOptions;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
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
 * @param sourceOptions the options of the Delta source and of the change data feed source, as given
 * @param mergeSchema the sink's {@code mergeSchema}
 * @param autoCompact the sink's {@code autoCompact}
 * @param hadoopConf Hadoop settings for the table's file system
 * @param properties table properties ({@code delta.*}) for a table the sink creates
 * @param changeRange the versions of a bounded change data feed read ({@code startingVersion} to
 *     {@code endingVersion}), or null for a streaming read
 */
record DeltaTableSettings(
    String name,
    String path,
    Map<String, String> sourceOptions,
    boolean mergeSchema,
    boolean autoCompact,
    Map<String, String> hadoopConf,
    Map<String, String> properties,
    VersionRange changeRange)
    implements Serializable {

  /**
   * Versions {@code from..to}, inclusive.
   *
   * @param from the first version
   * @param to the last version
   */
  record VersionRange(long from, long to) implements Serializable {}

  /** Whether the table is read as its change data feed ({@code readChangeFeed = true}). */
  boolean readsChangeFeed() {
    return sourceOptions.entrySet().stream()
        .anyMatch(
            e ->
                e.getKey().equalsIgnoreCase(DeltaCdfSourceOptions.READ_CHANGE_FEED.key())
                    && e.getValue().equalsIgnoreCase("true"));
  }

  /** The options of the plain Delta source (without {@code readChangeFeed}). */
  Map<String, String> plainSourceOptions() {
    return only(sourceOptions, DeltaSourceOptions.CATALOG);
  }

  /** The options of the change data feed source. */
  Map<String, String> changeFeedOptions() {
    return only(sourceOptions, DeltaCdfSourceOptions.CATALOG);
  }

  /** The options any of {@code catalogs} knows, as given. */
  private static Map<String, String> only(Map<String, String> given, OptionsCatalog... catalogs) {
    Map<String, String> options = new LinkedHashMap<>();
    given.forEach(
        (key, value) -> {
          for (OptionsCatalog catalog : catalogs) {
            if (catalog.find(key).isPresent()) {
              options.put(key, value);
              return;
            }
          }
        });
    return options;
  }

  static DeltaTableSettings of(
      String name,
      String path,
      Map<String, String> given,
      OptionValues values,
      Map<String, String> hadoopDefaults) {
    Map<String, String> source =
        only(given, DeltaSourceOptions.CATALOG, DeltaCdfSourceOptions.CATALOG);
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
        values.get(DeltaSinkOptions.AUTO_COMPACT),
        Map.copyOf(hadoop),
        Map.copyOf(properties),
        values
            .getOptional(DeltaSqlOptions.ENDING_VERSION) // the catalog's rule checked the start
            .map(
                end ->
                    new VersionRange(
                        Long.parseLong(values.get(DeltaSourceOptions.STARTING_VERSION).trim()),
                        end))
            .orElse(null));
  }
}
