package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.Scan;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.data.TransactionStateRow;
import io.delta.kernel.types.StructType;
import io.lakestream.api.annotation.Internal;
import java.util.Map;

/**
 * What Kernel's transaction and scan state rows hold. Wraps Kernel's {@code
 * data.TransactionStateRow} and {@code data.ScanStateRow}: the public {@link
 * Transaction#getTransactionState} and {@link Scan#getScanState} rows are opaque, but writing under
 * column mapping needs the physical schema (file statistics and Parquet columns are keyed by
 * physical names) and the table configuration, and reading a data file needs the physical schema to
 * read it with.
 */
@Internal
public final class KernelStateRows {
  private KernelStateRows() {}

  /** The table's physical schema (column-mapping names) in a transaction state row. */
  public static StructType physicalSchema(Row transactionState) {
    return TransactionStateRow.getPhysicalSchema(transactionState);
  }

  /** The table properties in a transaction state row. */
  public static Map<String, String> configuration(Row transactionState) {
    return TransactionStateRow.getConfiguration(transactionState);
  }

  /** The physical schema to read the data files of a scan with, from its scan state row. */
  public static StructType physicalReadSchema(Row scanState) {
    return ScanStateRow.getPhysicalDataReadSchema(scanState);
  }
}
