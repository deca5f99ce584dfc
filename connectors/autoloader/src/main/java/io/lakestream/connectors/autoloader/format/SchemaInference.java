package io.lakestream.connectors.autoloader.format;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.discovery.FileListing;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.AutoLoaderTypes;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaInferenceException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Infers a schema from a sample of the input, as Auto Loader does on a stream's first start: the
 * newest files (by modification time) up to {@code maxFiles} files and {@code maxBytes} bytes
 * (whichever is reached first). Every field seen becomes a column, in name order; values are
 * strings unless {@code inferColumnTypes} (then BIGINT, DOUBLE, BOOLEAN or STRING, widened across
 * records); Parquet, Avro and ORC files give their declared types (read from their footers or
 * headers only), whatever {@code inferColumnTypes} says, as Auto Loader does. XML looks at the
 * share of each file's records that option {@code samplingRatio} gives. Schema hints override
 * inferred types and add columns. Partition columns are the {@code name=value} directories of the
 * sampled files unless given.
 */
@Internal
public final class SchemaInference {
  private final String inputPath;
  private final Map<String, String> hadoopConf;
  private final FileFormat format;
  private final boolean inferColumnTypes;
  private final Map<String, ColumnType> hints;
  private final int maxFiles;
  private final long maxBytes;
  private final XmlOptions xml;

  /** Inference for a format other than xml. */
  public SchemaInference(
      String inputPath,
      Map<String, String> hadoopConf,
      FileFormat format,
      boolean inferColumnTypes,
      Map<String, ColumnType> hints,
      int maxFiles,
      long maxBytes) {
    this(inputPath, hadoopConf, format, inferColumnTypes, hints, maxFiles, maxBytes, null);
  }

  /**
   * @param xml how XML elements become records, and the share of them inference looks at ({@link
   *     XmlOptions#samplingRatio}); xml only, null for the other formats
   */
  public SchemaInference(
      String inputPath,
      Map<String, String> hadoopConf,
      FileFormat format,
      boolean inferColumnTypes,
      Map<String, ColumnType> hints,
      int maxFiles,
      long maxBytes,
      XmlOptions xml) {
    this.xml = xml;
    this.inputPath = inputPath.replaceAll("/+$", "");
    this.hadoopConf = hadoopConf;
    this.format = format;
    this.inferColumnTypes = inferColumnTypes;
    this.hints = hints;
    this.maxFiles = maxFiles;
    this.maxBytes = maxBytes;
  }

  /**
   * @param partitionColumns declared partition columns, or null to take them from the sample
   * @param rescuedDataColumn whether the schema ends with {@code _rescued_data}
   * @throws SchemaInferenceException if there is nothing to sample, or it cannot be read
   */
  public AutoLoaderSchema infer(List<String> partitionColumns, boolean rescuedDataColumn) {
    List<DiscoveredFile> sample;
    try {
      sample = sample();
    } catch (IOException e) {
      throw new SchemaInferenceException(
          "Auto Loader could not list " + inputPath + " to infer the schema: " + e.getMessage(), e);
    }
    if (sample.isEmpty()) {
      throw new SchemaInferenceException(
          AutoLoaderErrorClass.CF_EMPTY_DIR_FOR_SCHEMA_INFERENCE,
          "Auto Loader cannot infer a schema: the input path "
              + inputPath
              + " has no files yet. Give the schema (AutoLoaderBuilder.schema(\"id BIGINT, ...\")),"
              + " or start the stream once files have arrived.");
    }
    if (format.fixedColumns() != null) {
      return fixedSchema(sample, partitionColumns, rescuedDataColumn);
    }
    Map<String, Optional<ColumnType>> types = new TreeMap<>();
    LinkedHashSet<String> partitions = new LinkedHashSet<>();
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    try {
      FileSystem fs = FileSystem.get(URI.create(inputPath), conf);
      for (DiscoveredFile file : sample) {
        partitions.addAll(RecordConverter.partitionValues(file.key).keySet());
        if (file.size == 0) {
          continue; // no values, and a 0-byte Parquet file has no footer to read types from
        }
        Path path = new Path(inputPath + "/" + file.key);
        if (format.typedFiles()) {
          format
              .columnTypes(fs, path)
              .forEach(
                  (name, type) -> types.merge(name, Optional.of(type), SchemaInference::widen));
          continue;
        }
        long[] records = {0};
        format.read(
            fs,
            path,
            xml,
            (record, line, number) -> {
              records[0]++;
              if (record == null || (xml != null && !xml.sampled(records[0]))) {
                return;
              }
              record
                  .fields()
                  .forEachRemaining(
                      f ->
                          types.merge(
                              f.getKey(),
                              Optional.ofNullable(
                                  AutoLoaderTypes.infer(
                                      f.getValue(), inferColumnTypes, format.textValues())),
                              SchemaInference::widen));
            });
      }
    } catch (IOException | CorruptFileException e) {
      throw new SchemaInferenceException(
          "Auto Loader could not read the sample of " + inputPath + ": " + e.getMessage(), e);
    }
    List<String> partitionNames =
        partitionColumns != null ? partitionColumns : new ArrayList<>(partitions);
    hints.forEach((name, type) -> types.put(name, Optional.of(type)));
    List<Column> columns = new ArrayList<>();
    types.forEach(
        (name, type) -> {
          if (!partitionNames.contains(name)) {
            columns.add(new Column(name, type.orElse(ColumnType.STRING)));
          }
        });
    return new AutoLoaderSchema(columns, partitionNames, rescuedDataColumn);
  }

  /** The format's own columns, and the partition columns of the sample (files are not read). */
  private AutoLoaderSchema fixedSchema(
      List<DiscoveredFile> sample, List<String> partitionColumns, boolean rescuedDataColumn) {
    LinkedHashSet<String> partitions = new LinkedHashSet<>();
    sample.forEach(f -> partitions.addAll(RecordConverter.partitionValues(f.key).keySet()));
    List<Column> columns = new ArrayList<>();
    format.fixedColumns().forEach((name, type) -> columns.add(new Column(name, type)));
    return new AutoLoaderSchema(
        columns,
        partitionColumns != null ? partitionColumns : new ArrayList<>(partitions),
        rescuedDataColumn);
  }

  /** Widens two observations of a field; empty: seen only with null values so far. */
  private static Optional<ColumnType> widen(Optional<ColumnType> a, Optional<ColumnType> b) {
    return Optional.ofNullable(AutoLoaderTypes.widen(a.orElse(null), b.orElse(null)));
  }

  /** The newest files, keeping only {@code maxFiles} in memory while listing everything. */
  private List<DiscoveredFile> sample() throws IOException {
    Comparator<DiscoveredFile> newestFirst =
        Comparator.comparingLong((DiscoveredFile f) -> f.modificationTime)
            .reversed()
            .thenComparing(f -> f.key);
    java.util.PriorityQueue<DiscoveredFile> newest =
        new java.util.PriorityQueue<>(newestFirst.reversed());
    try (FileLister lister = FileLister.open(inputPath, hadoopConf)) {
      String after = "";
      FileListing page;
      do {
        page = lister.listAfter(after, 10_000);
        for (DiscoveredFile file : page.files()) {
          newest.add(file);
          if (newest.size() > maxFiles) {
            newest.poll(); // the oldest
          }
        }
        after = page.lastKey(after);
      } while (page.truncated());
    }
    List<DiscoveredFile> all = new ArrayList<>(newest);
    all.sort(newestFirst);
    List<DiscoveredFile> sample = new ArrayList<>();
    long bytes = 0;
    for (DiscoveredFile file : all) {
      if (bytes >= maxBytes && !sample.isEmpty()) {
        break;
      }
      sample.add(file);
      bytes += file.size;
    }
    return sample;
  }
}
