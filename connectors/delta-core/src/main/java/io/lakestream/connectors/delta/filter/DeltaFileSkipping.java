package io.lakestream.connectors.delta.filter;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.filter.DeltaFilter.And;
import io.lakestream.connectors.delta.filter.DeltaFilter.Comparison;
import io.lakestream.connectors.delta.filter.DeltaFilter.In;
import io.lakestream.connectors.delta.filter.DeltaFilter.NullTest;
import io.lakestream.connectors.delta.filter.DeltaFilter.Or;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides for each data file of a Delta table whether it may hold a row that matches a {@link
 * DeltaFilter}: exactly from its partition values for filters on partition columns (partition
 * pruning), and from the statistics of its {@code add} action ({@code minValues}, {@code
 * maxValues}, {@code nullCount}, {@code numRecords}) for the others (data skipping). It only ever
 * skips a file none of whose rows can match: missing or unreadable statistics keep the file, as
 * does a filter that statistics cannot decide. One decision serves the files of a snapshot and the
 * files later versions add alike.
 *
 * <p>Kernel's own data skipping ({@code ScanBuilder.withFilter}) only prunes the scan of a
 * snapshot, not the {@code add} actions of later versions a stream reads, and does not report what
 * it skipped; this one takes a file's partition values and statistics JSON wherever they come from.
 * Column names are matched ignoring case, as Delta does. Thread-safe (immutable).
 */
@Internal
public final class DeltaFileSkipping {
  private static final DeltaFileSkipping NONE = new DeltaFileSkipping(null, null);

  private final DeltaFilter filter;
  private final FileTest test;

  private DeltaFileSkipping(DeltaFilter filter, FileTest test) {
    this.filter = filter;
    this.test = test;
  }

  /** Keeps every file. */
  public static DeltaFileSkipping none() {
    return NONE;
  }

  /**
   * The skipping of {@code filter} (null: {@link #none()}) on a table of {@code schema}.
   *
   * @param table the table, for messages
   * @throws LakestreamException ({@code DELTA_INVALID_SOURCE_SETTING}) if the filter names a column
   *     the schema lacks, compares a column of a type filters do not compare (binary, nested), or
   *     has a value whose Java type is not the column's; the message names the column
   */
  public static DeltaFileSkipping of(
      DeltaFilter filter, StructType schema, List<String> partitionColumns, String table) {
    if (filter == null) {
      return NONE;
    }
    return new DeltaFileSkipping(
        filter, new Compiler(schema, Set.copyOf(partitionColumns), table).compile(filter));
  }

  /** Whether it keeps every file (there is no filter). */
  public boolean keepsAll() {
    return test == null;
  }

  /**
   * Whether the data file with these partition values and statistics may hold a matching row.
   *
   * @param partitionValues partition column name to its value's text form (values may be null)
   * @param statsJson the {@code add} action's {@code stats}, or null
   */
  public boolean mayMatch(Map<String, String> partitionValues, String statsJson) {
    return test == null || test.mayMatch(new DataFileFacts(partitionValues, statsJson));
  }

  @Override
  public String toString() {
    return filter == null ? "no filter" : filter.toString();
  }

  /** Resolves a filter's columns against the schema and checks its values' types. */
  private record Compiler(StructType schema, Set<String> partitionColumns, String table) {
    FileTest compile(DeltaFilter filter) {
      if (filter instanceof And and) {
        return FileTest.allOf(compileAll(and.filters()));
      } else if (filter instanceof Or or) {
        return FileTest.anyOf(compileAll(or.filters()));
      } else if (filter instanceof Comparison c) {
        return leaf(c.column(), c, List.of(c.value()));
      } else if (filter instanceof In in) {
        return leaf(in.column(), in, in.values());
      }
      NullTest test = (NullTest) filter;
      return leaf(test.column(), test, List.of());
    }

    private List<FileTest> compileAll(List<DeltaFilter> filters) {
      List<FileTest> tests = new ArrayList<>(filters.size());
      filters.forEach(f -> tests.add(compile(f)));
      return tests;
    }

    private FileTest leaf(String name, DeltaFilter leaf, List<Object> values) {
      StructField column = column(name);
      for (Object value : values) {
        checkType(column, value);
      }
      return partitionColumns.contains(column.getName())
          ? new PartitionTest(column, leaf)
          : new StatsTest(column, leaf);
    }

    private StructField column(String name) {
      if (schema.indexOf(name) >= 0) {
        return schema.at(schema.indexOf(name));
      }
      for (StructField field : schema.fields()) {
        if (field.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
          return field;
        }
      }
      throw invalid(
          "The Delta source filter names column '"
              + name
              + "', which the Delta table at "
              + table
              + " does not have; its columns are "
              + schema.fieldNames());
    }

    private void checkType(StructField column, Object value) {
      Class<?> expected = FilterValues.javaType(column.getDataType());
      if (expected == null) {
        throw invalid(
            "The Delta source filter compares column '"
                + column.getName()
                + "', which is "
                + column.getDataType()
                + ": filters compare primitive columns other than binary only (IS NULL / IS NOT"
                + " NULL take any column)");
      }
      if (!expected.isInstance(value)) {
        throw invalid(
            "The Delta source filter compares column '"
                + column.getName()
                + "' ("
                + column.getDataType()
                + ") with "
                + value
                + " of type "
                + value.getClass().getName()
                + "; give a "
                + expected.getName()
                + " for this column");
      }
    }

    private static LakestreamException invalid(String message) {
      return new LakestreamException(DeltaErrorClass.DELTA_INVALID_SOURCE_SETTING, message);
    }
  }
}
