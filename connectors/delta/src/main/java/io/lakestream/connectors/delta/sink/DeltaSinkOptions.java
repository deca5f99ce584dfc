package io.lakestream.connectors.delta.sink;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionsCatalog;
import java.util.List;

/**
 * The string options of the Delta sink, under Spark's names, for {@link
 * DeltaSinkBuilder#option(String, String)}. {@link #CATALOG} checks them (keys ignore case, as
 * Spark's do); see {@code docs/options/delta-sink.md}.
 */
@PublicEvolving
public final class DeltaSinkOptions {

  /** Spark's {@code mergeSchema}: add new nullable declared columns to an existing table. */
  public static final Option<Boolean> MERGE_SCHEMA =
      Option.key("mergeSchema")
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

  /** Databricks' auto-compaction, on for this sink (the table property also turns it on). */
  public static final Option<Boolean> AUTO_COMPACT =
      Option.key("autoCompact")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "When true, after an epoch's commit the partitions it wrote are compacted (OPTIMIZE,"
                  + " recorded with auto=true) once one holds 50 or more files below the target"
                  + " size (the table's delta.targetFileSize, else 128 MiB), as Databricks'"
                  + " auto-compaction does. Also on when the table has"
                  + " delta.autoOptimize.autoCompact=true or auto. The epoch's commit always"
                  + " stands: a compaction that fails or loses to another writer is logged and"
                  + " left for a later epoch.");

  /** All options. */
  public static final List<Option<?>> ALL = List.of(MERGE_SCHEMA, AUTO_COMPACT);

  /** Every option of the Delta sink. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("delta-sink", "Delta sink")
          .summary(
              "Options of `DeltaSinkBuilder.option(key, value)`, named as in Spark's Delta writer"
                  + " (`df.writeStream.format(\"delta\").option(...)`). The sink's other settings"
                  + " (`maxRowsPerFile`, `maxBufferedBytes`, `hadoopConf`) are builder methods.")
          .options(ALL)
          .build();

  private DeltaSinkOptions() {}
}
