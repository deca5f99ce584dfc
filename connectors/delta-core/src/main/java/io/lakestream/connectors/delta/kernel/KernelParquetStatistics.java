package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.internal.parquet.ParquetStatsReader;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.util.List;

/**
 * A written Parquet file's statistics, read from its footer. Wraps Kernel's {@code
 * defaults.internal.parquet.ParquetStatsReader}: the public Parquet handler computes statistics
 * only for files it writes itself, and lakestream writes the files of tables without column mapping
 * with its own faster writer, yet records the same statistics Kernel would.
 */
@Internal
public final class KernelParquetStatistics {
  private KernelParquetStatistics() {}

  /**
   * The statistics (row count, min, max, null counts of {@code columns}) of {@code file}.
   *
   * @throws IOException if the footer cannot be read
   */
  public static DataFileStatistics read(InputFile file, StructType schema, List<Column> columns)
      throws IOException {
    return ParquetStatsReader.readDataFileStatistics(file, schema, columns);
  }
}
