package io.lakestream.connectors.autoloader;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.clean.CleanSourceMode;
import io.lakestream.connectors.autoloader.clean.SourceCleaner;
import io.lakestream.connectors.autoloader.format.FileFormat;
import io.lakestream.connectors.autoloader.format.FileRowReader;
import io.lakestream.connectors.autoloader.format.SchemaInference;
import io.lakestream.connectors.autoloader.format.XmlOptions;
import io.lakestream.connectors.autoloader.notification.NotificationSettings;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import io.lakestream.connectors.autoloader.schema.SchemaHistory;
import io.lakestream.connectors.autoloader.schema.SchemaInferenceException;
import io.lakestream.connectors.autoloader.source.FileDiscoverySource;
import io.lakestream.connectors.autoloader.source.enumerator.DiscoverySettings;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.source.CheckedOptionsBuilder;
import io.lakestream.state.Locations;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds an {@link AutoLoader} stream from Databricks-compatible {@code cloudFiles.*} options
 * ({@link AutoLoaderOptions}).
 *
 * <pre>{@code
 * AutoLoader orders = AutoLoaderBuilder.forPath("s3a://landing/orders")
 *     .name("orders-files")
 *     .option("cloudFiles.format", "json")
 *     .option("cloudFiles.schemaLocation", "s3a://state/orders/schema")
 *     .query(query)
 *     .build();
 * DataStream<Row> rows = orders.stream(env);
 * }</pre>
 *
 * <p>{@link #build()} runs {@link #sanityCheck()}, then resolves the schema: the given one, else
 * the newest in the schema history, else one inferred from a sample and recorded as {@code
 * _schemas/0}. Fails with a {@link io.lakestream.api.error.LakestreamException} naming the option
 * for bad options (keys ignore case; see {@link
 * io.lakestream.connectors.options.OptionErrorClass}), with {@link IllegalArgumentException} for a
 * schema or checkpoint location inside the input path, and with {@link SchemaInferenceException}
 * when there is nothing to infer from.
 */
@PublicEvolving
public final class AutoLoaderBuilder extends CheckedOptionsBuilder<AutoLoaderBuilder> {
  /** Incremental listings between full listings in {@code useIncrementalListing=auto}. */
  static final int AUTO_INCREMENTAL_LISTINGS = 7;

  private static final int PAGE_SIZE = 10_000;

  private String givenSchema;

  private AutoLoaderBuilder(String path) {
    super(path);
  }

  /** A stream of the files arriving under {@code path} (local path or URI, e.g. s3a://). */
  public static AutoLoaderBuilder forPath(String path) {
    return new AutoLoaderBuilder(path);
  }

  /** The schema, e.g. {@code "id BIGINT, name STRING"}; then nothing is inferred. */
  public AutoLoaderBuilder schema(String ddl) {
    this.givenSchema = Objects.requireNonNull(ddl, "ddl");
    return this;
  }

  /**
   * Checks the options against {@link AutoLoaderOptions#CATALOG} and with the schema ({@link
   * io.lakestream.api.error.LakestreamException} naming the option), and the locations and the
   * given schema ({@code CONNECTOR_NAME_MISSING}, {@code CF_LOCATION_INSIDE_INPUT}, {@code
   * CF_INVALID_SCHEMA}; notifications off S3 are {@code CONFLICTING_OPTIONS}).
   */
  public void sanityCheck() {
    checkOptions("Auto Loader stream", AutoLoaderOptions.CATALOG);
    SchemaEvolutionMode mode = mode();
    if (givenSchema != null) {
      givenColumns();
      if (mode == SchemaEvolutionMode.ADD_NEW_COLUMNS) {
        throw AutoLoaderOptions.CATALOG.conflict(
            "option cloudFiles.schemaEvolutionMode=addNewColumns needs an inferred schema kept in"
                + " cloudFiles.schemaLocation; with a given schema use rescue, failOnNewColumns or"
                + " none");
      }
    } else if (options.get(AutoLoaderOptions.SCHEMA_LOCATION) == null) {
      throw AutoLoaderOptions.CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          AutoLoaderOptions.SCHEMA_LOCATION.key(),
          "needs option cloudFiles.schemaLocation to keep the inferred schema of "
              + path
              + " (or give a schema). Put it outside the input path, e.g. next to the query's"
              + " checkpoint location.");
    }
    options.convert(AutoLoaderOptions.SCHEMA_HINTS, AutoLoaderSchema::parseColumns);
    fixedColumnsTakeNoHints();
    xmlOptions();
    notInsideInput("cloudFiles.schemaLocation", options.get(AutoLoaderOptions.SCHEMA_LOCATION));
    if (query != null) {
      notInsideInput("checkpointLocation", query.checkpointLocation());
    }
    notificationSettings();
    cleanSourceSettings();
  }

  /** text and binaryFile have fixed columns: hints would change what the format reads. */
  private void fixedColumnsTakeNoHints() {
    FileFormat format = FileFormat.of(options.get(AutoLoaderOptions.FORMAT));
    if (format.fixedColumns() == null
        || options.getOptional(AutoLoaderOptions.SCHEMA_HINTS).isEmpty()) {
      return;
    }
    List<String> columns = new ArrayList<>();
    format.fixedColumns().forEach((name, type) -> columns.add(name + " " + type.sql()));
    throw AutoLoaderOptions.CATALOG.conflict(
        "option cloudFiles.schemaHints does not apply to cloudFiles.format="
            + format.optionValue()
            + ": its columns are fixed ("
            + String.join(", ", columns)
            + "). Remove the hints.");
  }

  /** The XML options of cloudFiles.format=xml, or null for the other formats. */
  private XmlOptions xmlOptions() {
    if (FileFormat.of(options.get(AutoLoaderOptions.FORMAT)) != FileFormat.XML) {
      return null;
    }
    try {
      return new XmlOptions(
          options.get(AutoLoaderOptions.ROW_TAG),
          options.get(AutoLoaderOptions.ATTRIBUTE_PREFIX),
          options.get(AutoLoaderOptions.VALUE_TAG),
          options.get(AutoLoaderOptions.EXCLUDE_ATTRIBUTE),
          options.get(AutoLoaderOptions.IGNORE_NAMESPACE),
          options.get(AutoLoaderOptions.IGNORE_SURROUNDING_SPACES),
          options.get(AutoLoaderOptions.SAMPLING_RATIO));
    } catch (IllegalArgumentException e) {
      throw AutoLoaderOptions.CATALOG.failure(
          OptionErrorClass.INVALID_OPTION_VALUE,
          AutoLoaderOptions.ROW_TAG.key(),
          "Auto Loader option " + e.getMessage());
    }
  }

  /** The file notification settings, or null without cloudFiles.useNotifications. */
  private NotificationSettings notificationSettings() {
    if (!options.get(AutoLoaderOptions.USE_NOTIFICATIONS)) {
      return null;
    }
    String queueUrl = options.get(AutoLoaderOptions.QUEUE_URL);
    String scheme = URI.create(path).getScheme();
    if (!List.of("s3a", "s3", "s3n").contains(scheme)) {
      throw AutoLoaderOptions.CATALOG.failure(
          OptionErrorClass.CONFLICTING_OPTIONS,
          AutoLoaderOptions.USE_NOTIFICATIONS.key(),
          "Auto Loader option cloudFiles.useNotifications=true reads S3 event notifications: the"
              + " input path must be on S3 (s3a://bucket/prefix), was "
              + path);
    }
    String region = options.get(AutoLoaderOptions.REGION);
    if (region == null && queueUrl != null) {
      region = NotificationSettings.regionOf(queueUrl);
    }
    if (region == null) {
      throw AutoLoaderOptions.CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          AutoLoaderOptions.REGION.key(),
          queueUrl == null
              ? "option cloudFiles.region is needed: without cloudFiles.queueUrl Auto Loader sets"
                  + " up a queue, in the region it names"
              : "option cloudFiles.region is needed: the queue URL "
                  + queueUrl
                  + " (cloudFiles.queueUrl) names no AWS region");
    }
    Map<String, String> tags = options.passThrough(AutoLoaderOptions.RESOURCE_TAG_PREFIX);
    boolean useSns = options.get(AutoLoaderOptions.USE_SNS);
    if (queueUrl != null && useSns) {
      throw AutoLoaderOptions.CATALOG.conflict(
          "option cloudFiles.useSns=true puts a topic between the bucket and the queue Auto Loader"
              + " sets up, and with cloudFiles.queueUrl it sets up none: subscribe your queue to"
              + " your topic yourself, or remove cloudFiles.queueUrl");
    }
    if (queueUrl != null && !tags.isEmpty()) {
      throw AutoLoaderOptions.CATALOG.conflict(
          "options cloudFiles.resourceTag.* tag the queue Auto Loader sets up, and with"
              + " cloudFiles.queueUrl it sets up none: tag your queue yourself, or remove"
              + " cloudFiles.queueUrl");
    }
    return new NotificationSettings(
        queueUrl,
        region,
        options.get(AutoLoaderOptions.SQS_ENDPOINT),
        options.get(AutoLoaderOptions.AWS_ACCESS_KEY),
        options.get(AutoLoaderOptions.AWS_SECRET_KEY),
        0,
        options.get(AutoLoaderOptions.S3_ENDPOINT),
        useSns,
        options.get(AutoLoaderOptions.SNS_ENDPOINT),
        tags);
  }

  /** The cleaner for cloudFiles.cleanSource, or null for OFF. */
  private SourceCleaner cleanSourceSettings() {
    CleanSourceMode mode = CleanSourceMode.of(options.get(AutoLoaderOptions.CLEAN_SOURCE));
    String destination = options.get(AutoLoaderOptions.CLEAN_SOURCE_MOVE_DESTINATION);
    if (mode == CleanSourceMode.OFF) {
      return null;
    }
    if (mode == CleanSourceMode.MOVE) {
      destination = Locations.absolute(destination);
      notInsideInput("cloudFiles.cleanSource.moveDestination", destination);
      URI input = URI.create(comparable(path));
      URI target = URI.create(comparable(destination));
      if (!Objects.equals(input.getScheme(), target.getScheme())
          || !Objects.equals(input.getAuthority(), target.getAuthority())) {
        throw AutoLoaderOptions.CATALOG.failure(
            OptionErrorClass.INVALID_OPTION_VALUE,
            "cloudFiles.cleanSource.moveDestination",
            "Auto Loader option cloudFiles.cleanSource.moveDestination "
                + destination
                + " must be on the same file system (bucket) as the input path "
                + path
                + ": a move is a rename there");
      }
    }
    return new SourceCleaner(
        mode,
        path,
        destination,
        options.get(AutoLoaderOptions.CLEAN_SOURCE_RETENTION).toMillis(),
        hadoopConf);
  }

  private SchemaEvolutionMode mode() {
    return options
        .getOptional(AutoLoaderOptions.SCHEMA_EVOLUTION_MODE)
        .map(SchemaEvolutionMode::of)
        .orElse(
            givenSchema != null ? SchemaEvolutionMode.NONE : SchemaEvolutionMode.ADD_NEW_COLUMNS);
  }

  /** The columns of the schema given with {@link #schema(String)}. */
  private Map<String, ColumnType> givenColumns() {
    try {
      return AutoLoaderSchema.parseColumns(givenSchema);
    } catch (IllegalArgumentException e) {
      throw new LakestreamException(
          AutoLoaderErrorClass.CF_INVALID_SCHEMA,
          "Auto Loader schema '" + givenSchema + "' (AutoLoaderBuilder.schema) " + e.getMessage(),
          e);
    }
  }

  private void notInsideInput(String option, String location) {
    if (location == null) {
      return;
    }
    String loc = comparable(Locations.absolute(location));
    String input = comparable(path);
    if (loc.equals(input) || loc.startsWith(input + "/")) {
      throw new LakestreamException(
          AutoLoaderErrorClass.CF_LOCATION_INSIDE_INPUT,
          "Auto Loader "
              + option
              + " "
              + location
              + " is inside the input path "
              + path
              + ": the stream would list its own state files as input. Put it in a different"
              + " prefix, e.g. next to the input, not under it.");
    }
  }

  /** {@code file:/x}, {@code file:///x} are the same location. */
  private static String comparable(String uri) {
    return uri.replaceFirst("^file:/+", "file:///").replaceAll("/+$", "");
  }

  /**
   * Checks the options and resolves the schema.
   *
   * @throws io.lakestream.api.error.LakestreamException for a bad option
   * @throws IllegalArgumentException for a bad location
   * @throws SchemaInferenceException if there is no schema and nothing to infer it from
   */
  public AutoLoader build() {
    sanityCheck();
    FileFormat format =
        FileFormat.of(options.get(AutoLoaderOptions.FORMAT))
            .wholeText(options.get(AutoLoaderOptions.WHOLE_TEXT));
    SchemaEvolutionMode mode = mode();
    boolean inferTypes = options.get(AutoLoaderOptions.INFER_COLUMN_TYPES);
    List<String> partitions =
        options
            .getOptional(AutoLoaderOptions.PARTITION_COLUMNS)
            .map(AutoLoaderOptions::partitionColumns)
            .orElse(null);
    boolean rescued = mode != SchemaEvolutionMode.NONE;
    AutoLoaderSchema schema;
    SchemaHistory history = null;
    long version = -1;
    if (givenSchema != null) {
      List<Column> columns = new ArrayList<>();
      givenColumns().forEach((n, t) -> columns.add(new Column(n, t)));
      schema = new AutoLoaderSchema(columns, partitions == null ? List.of() : partitions, rescued);
    } else {
      history = new SchemaHistory(options.get(AutoLoaderOptions.SCHEMA_LOCATION), hadoopConf);
      SchemaHistory.Version current = currentSchema(history, format, inferTypes, partitions);
      version = current.version();
      AutoLoaderSchema stored = current.schema();
      // the rescued data column follows the mode of this run, not the one of the first run
      schema = new AutoLoaderSchema(stored.columns(), stored.partitionColumns(), rescued);
    }
    DiscoverySettings settings =
        new DiscoverySettings(
            options.get(AutoLoaderOptions.MAX_FILES_PER_TRIGGER),
            options.getOptional(AutoLoaderOptions.MAX_BYTES_PER_TRIGGER).orElse(0L),
            false,
            switch (options.get(AutoLoaderOptions.USE_INCREMENTAL_LISTING)) {
              case "true" -> 0;
              case "false" -> 1;
              default -> AUTO_INCREMENTAL_LISTINGS;
            },
            options
                .getOptional(AutoLoaderOptions.BACKFILL_INTERVAL)
                .map(d -> d.toMillis())
                .orElse(0L),
            maxFileAgeMillis(),
            -1,
            PAGE_SIZE);
    FileDiscoverySource source =
        new FileDiscoverySource(
            name,
            path,
            hadoopConf,
            settings,
            options.get(AutoLoaderOptions.INCLUDE_EXISTING_FILES),
            System.currentTimeMillis(),
            query,
            notificationSettings());
    FileRowReader reader =
        new FileRowReader(
            path,
            hadoopConf,
            format,
            new RecordConverter(schema),
            mode,
            history,
            version,
            inferTypes,
            options.get(AutoLoaderOptions.IGNORE_CORRUPT_FILES),
            xmlOptions());
    return new AutoLoader(
        name, source, reader, schema, version, cleanSourceSettings(), maxFileAgeMillis());
  }

  /** cloudFiles.maxFileAge in milliseconds; 0 = no max age. */
  private long maxFileAgeMillis() {
    return options.getOptional(AutoLoaderOptions.MAX_FILE_AGE).map(d -> d.toMillis()).orElse(0L);
  }

  private SchemaHistory.Version currentSchema(
      SchemaHistory history, FileFormat format, boolean inferTypes, List<String> partitions) {
    try {
      Optional<SchemaHistory.Version> latest = history.latest();
      if (latest.isPresent()) {
        return latest.get();
      }
      Map<String, ColumnType> hints =
          options
              .getOptional(AutoLoaderOptions.SCHEMA_HINTS)
              .map(AutoLoaderSchema::parseColumns)
              .orElse(Map.of());
      AutoLoaderSchema inferred =
          new SchemaInference(
                  path,
                  hadoopConf,
                  format,
                  inferTypes,
                  hints,
                  options.get(AutoLoaderOptions.SAMPLE_NUM_FILES),
                  options.get(AutoLoaderOptions.SAMPLE_NUM_BYTES),
                  xmlOptions())
              .infer(partitions, false);
      if (!history.record(0, inferred)) {
        return history.latest().orElseThrow();
      }
      return new SchemaHistory.Version(0, inferred);
    } catch (IOException e) {
      throw new SchemaInferenceException(
          "Auto Loader could not read or write its schema history in "
              + history.directory()
              + " (cloudFiles.schemaLocation): "
              + e.getMessage(),
          e);
    }
  }
}
