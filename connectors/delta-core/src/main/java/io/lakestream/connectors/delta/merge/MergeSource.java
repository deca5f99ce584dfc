package io.lakestream.connectors.delta.merge;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The source rows of one MERGE batch, one per key: rows with a null key value (they match nothing
 * and are kept as they are), and a map from key to the single row that applies for it, after the
 * duplicate rule of the {@link DeltaMerge}.
 */
final class MergeSource {
  private final Map<List<Object>, Object[]> byKey;
  private final List<Object[]> nullKeyRows;

  private MergeSource(Map<List<Object>, Object[]> byKey, List<Object[]> nullKeyRows) {
    this.byKey = byKey;
    this.nullKeyRows = nullKeyRows;
  }

  /**
   * Groups {@code rows} by key.
   *
   * @throws DuplicateMergeKeyException if two rows have one key and the merge names no ordering
   *     column
   * @throws io.lakestream.api.error.LakestreamException ({@code DELTA_INVALID_ROW}) if a row has
   *     fewer values than the table has columns
   */
  static MergeSource of(DeltaMerge merge, MergeKeys keys, List<Object[]> rows) {
    DeltaTableSchema schema = merge.schema();
    int width = schema.columns().size();
    int ordering = merge.orderingColumn().map(schema::indexOf).orElse(-1);
    ColumnType orderingType = ordering < 0 ? null : schema.columns().get(ordering).type();
    Map<List<Object>, Object[]> byKey = new HashMap<>(Math.max(16, rows.size() * 2));
    List<Object[]> nullKeyRows = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      Object[] row = rows.get(r);
      if (row == null || row.length < width) {
        throw new LakestreamException(
            DeltaErrorClass.DELTA_INVALID_ROW,
            "Source row "
                + r
                + " has "
                + (row == null ? "no" : String.valueOf(row.length))
                + " values; a MERGE source row starts with the table's "
                + width
                + " columns "
                + schema.columnNames());
      }
      List<Object> key = keys.keyOf(row);
      if (key == null) {
        nullKeyRows.add(row);
        continue;
      }
      Object[] previous = byKey.putIfAbsent(key, row);
      if (previous == null) {
        continue;
      }
      if (ordering < 0) {
        throw new DuplicateMergeKeyException(
            "The MERGE batch into "
                + merge.table().path()
                + " has several source rows with key "
                + keys.describe(key)
                + ", so which one applies is undefined. Deduplicate the batch, or name an"
                + " ordering column with DeltaMerge.Builder.lastByOrderingColumn(column) so the"
                + " row with the greatest value in it wins.");
      }
      int c =
          MergeKeys.compareValues(
              MergeKeys.normalize(orderingType, row[ordering]),
              MergeKeys.normalize(orderingType, previous[ordering]));
      if (c > 0 || (c == 0 && MergeKeys.compareRows(row, previous) > 0)) {
        byKey.put(key, row);
      }
    }
    return new MergeSource(byKey, nullKeyRows);
  }

  Map<List<Object>, Object[]> byKey() {
    return byKey;
  }

  List<Object[]> nullKeyRows() {
    return nullKeyRows;
  }
}
