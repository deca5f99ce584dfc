package io.lakestream.connectors.autoloader.format;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.schema.AutoLoaderTypes;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import io.lakestream.connectors.autoloader.schema.SchemaHistory;
import io.lakestream.connectors.autoloader.schema.UnknownFieldException;
import io.lakestream.connectors.schema.Column;
import io.lakestream.connectors.schema.ColumnType;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.flink.types.Row;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads one discovered file into rows of the stream's schema, in file order.
 *
 * <p>Columns the schema lacks: in {@code addNewColumns} mode the rest of the file is scanned for
 * every new column, the widened schema is recorded as the next version in the schema history, and
 * {@link UnknownFieldException} is thrown; {@code failOnNewColumns} throws without recording;
 * {@code rescue} keeps them in {@code _rescued_data}; {@code none} drops them.
 */
@Internal
public final class FileRowReader implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String inputPath;
  private final TreeMap<String, String> hadoopConf;
  private final FileFormat format;
  private final RecordConverter converter;
  private final SchemaEvolutionMode mode;
  private final SchemaHistory history;
  private final long schemaVersion;
  private final boolean inferColumnTypes;
  private final boolean ignoreCorruptFiles;
  private final XmlOptions xml;
  private transient FileSystem fs;

  /** A reader of a format other than xml. */
  public FileRowReader(
      String inputPath,
      Map<String, String> hadoopConf,
      FileFormat format,
      RecordConverter converter,
      SchemaEvolutionMode mode,
      SchemaHistory history,
      long schemaVersion,
      boolean inferColumnTypes,
      boolean ignoreCorruptFiles) {
    this(
        inputPath,
        hadoopConf,
        format,
        converter,
        mode,
        history,
        schemaVersion,
        inferColumnTypes,
        ignoreCorruptFiles,
        null);
  }

  /**
   * @param history the schema history (null when the schema was given, not inferred)
   * @param schemaVersion the history version of {@code converter}'s schema
   * @param ignoreCorruptFiles whether the caller skips files that fail with {@link
   *     CorruptFileException} (option {@code ignoreCorruptFiles}); this reader throws either way
   * @param xml how XML elements become records (xml only; null for the other formats)
   */
  public FileRowReader(
      String inputPath,
      Map<String, String> hadoopConf,
      FileFormat format,
      RecordConverter converter,
      SchemaEvolutionMode mode,
      SchemaHistory history,
      long schemaVersion,
      boolean inferColumnTypes,
      boolean ignoreCorruptFiles,
      XmlOptions xml) {
    this.ignoreCorruptFiles = ignoreCorruptFiles;
    this.xml = xml;
    this.inputPath = inputPath.replaceAll("/+$", "");
    this.hadoopConf = new TreeMap<>(hadoopConf);
    this.format = format;
    this.converter = converter;
    this.mode = mode;
    this.history = history;
    this.schemaVersion = schemaVersion;
    this.inferColumnTypes = inferColumnTypes;
  }

  /** Whether files that fail with {@link CorruptFileException} are to be skipped. */
  public boolean ignoresCorruptFiles() {
    return ignoreCorruptFiles;
  }

  /** The full path of a discovered file. */
  public String pathOf(DiscoveredFile file) {
    return inputPath + "/" + file.key;
  }

  /**
   * Emits the rows of {@code file}.
   *
   * <p>An empty file has no rows (a Parquet file of 0 bytes is not opened: it has no footer to
   * read), except in the formats of a row per file (wholetext, binaryFile), where it is one row.
   *
   * @return the number of rows emitted
   * @throws UnknownFieldException if the file has new columns (see class comment)
   * @throws CorruptFileException if the file is not of its format, or is truncated or corrupt
   * @throws IOException if the file cannot be read (the message names it)
   */
  public long read(DiscoveredFile file, Consumer<Row> out) throws IOException {
    String path = pathOf(file);
    if (file.size == 0 && !format.recordPerFile()) {
      return 0;
    }
    Map<String, String> partitions = RecordConverter.partitionValues(file.key);
    boolean detectNew =
        mode == SchemaEvolutionMode.ADD_NEW_COLUMNS
            || mode == SchemaEvolutionMode.FAIL_ON_NEW_COLUMNS;
    Map<String, ColumnType> newColumns = new TreeMap<>();
    long[] rows = {0};
    try {
      Map<String, ColumnType> fileTypes =
          detectNew ? format.columnTypes(fileSystem(), new Path(path)) : Map.of();
      format.read(
          fileSystem(),
          new Path(path),
          xml,
          (record, line, number) -> {
            if (detectNew && record != null) {
              List<String> unknown = new ArrayList<>();
              converter.unknownFields(record, unknown);
              for (String name : unknown) {
                newColumns.merge(
                    name,
                    fileTypes.getOrDefault(name, typeOf(record, name)),
                    AutoLoaderTypes::widen);
              }
            }
            if (newColumns.isEmpty()) {
              out.accept(converter.toRow(record, line, number, path, partitions));
              rows[0]++;
            }
          });
    } catch (java.io.FileNotFoundException e) {
      throw new IOException(
          "Auto Loader file "
              + path
              + " was discovered but no longer exists: files must stay in the input path until"
              + " they are processed",
          e);
    }
    if (!newColumns.isEmpty()) {
      throw newColumns(path, newColumns);
    }
    return rows[0];
  }

  private ColumnType typeOf(ObjectNode record, String name) {
    ColumnType type =
        AutoLoaderTypes.infer(record.get(name), inferColumnTypes, format.textValues());
    return type == null ? ColumnType.STRING : type;
  }

  private UnknownFieldException newColumns(String path, Map<String, ColumnType> found)
      throws IOException {
    List<String> names = new ArrayList<>(found.keySet());
    if (mode == SchemaEvolutionMode.FAIL_ON_NEW_COLUMNS || history == null) {
      return new UnknownFieldException(
          "Auto Loader found new columns "
              + names
              + " in "
              + path
              + " and cloudFiles.schemaEvolutionMode="
              + mode.optionValue()
              + " does not evolve the schema. Add them with cloudFiles.schemaHints or a new"
              + " schema, or use schemaEvolutionMode addNewColumns or rescue.",
          names,
          path,
          -1);
    }
    List<Column> added = new ArrayList<>();
    found.forEach((name, type) -> added.add(new Column(name, type)));
    long next = schemaVersion + 1;
    boolean recorded = history.record(next, converter.schema().withColumns(added));
    return new UnknownFieldException(
        "Auto Loader found new columns "
            + names
            + " in "
            + path
            + "; "
            + (recorded ? "recorded" : "another task recorded")
            + " schema version "
            + next
            + " in "
            + history.directory()
            + ". The stream stops so that it restarts with the new schema: restart the query (from"
            + " its checkpoint) and it continues with these columns.",
        names,
        path,
        next);
  }

  private FileSystem fileSystem() throws IOException {
    if (fs == null) {
      Configuration conf = new Configuration();
      hadoopConf.forEach(conf::set);
      fs = FileSystem.get(URI.create(inputPath), conf);
    }
    return fs;
  }
}
