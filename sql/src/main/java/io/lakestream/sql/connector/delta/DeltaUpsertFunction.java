package io.lakestream.sql.connector.delta;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.merge.DeltaMerge;
import io.lakestream.connectors.delta.merge.DeltaMergeCommit;
import io.lakestream.connectors.sink.EpochFunction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies one epoch of a changelog to a Delta table with a primary key as ONE idempotent MERGE
 * version ({@link DeltaMergeCommit}, {@code txn(appId, epoch)}, change data files when the table
 * has the change data feed): per key the epoch's newest change wins, an upsert updates or inserts
 * the row, a delete removes it.
 *
 * <p>Staged rows hold the table's columns, then {@link #DELETE_COLUMN} and {@link
 * #SEQUENCE_COLUMN}: the writers see each key's changes in order (the stream is partitioned by key)
 * and number them, so the newest change of a key is the one with the greatest number, the same on a
 * replay.
 */
final class DeltaUpsertFunction implements EpochFunction {
  private static final long serialVersionUID = 1L;

  /** Staged: whether the change deletes the key. */
  static final String DELETE_COLUMN = "_lakestream_delete";

  /** Staged: the change's number in its writer, in arrival order. */
  static final String SEQUENCE_COLUMN = "_lakestream_seq";

  private final DeltaTable table;
  private final DeltaTableSchema schema;
  private final int[] keyPositions;
  private final DeltaMergeCommit merge;
  private transient boolean tableChecked;

  DeltaUpsertFunction(
      DeltaTable table, DeltaTableSchema schema, List<String> keyColumns, String appId) {
    this.table = table;
    this.schema = schema;
    this.keyPositions = keyColumns.stream().mapToInt(schema::indexOf).toArray();
    int deleteFlag = schema.columns().size();
    this.merge =
        new DeltaMergeCommit(
            DeltaMerge.into(table, schema, keyColumns.toArray(new String[0]))
                .whenMatchedDelete((source, target) -> (Boolean) source[deleteFlag])
                .whenMatchedUpdateAll()
                .whenNotMatchedInsertAll((source, target) -> !(Boolean) source[deleteFlag])
                .build(),
            appId);
  }

  /** The staging table's schema: the table's columns (unpartitioned), the flag, the number. */
  static DeltaTableSchema stagingSchema(DeltaTableSchema schema) {
    return DeltaTableSchema.builder()
        .columns(schema.rowSchema())
        .column(DELETE_COLUMN, io.lakestream.connectors.schema.ColumnType.BOOLEAN, false)
        .column(SEQUENCE_COLUMN, io.lakestream.connectors.schema.ColumnType.LONG, false)
        .build();
  }

  @Override
  public void call(long epoch, List<Object[]> staged) throws IOException {
    if (!tableChecked) {
      table.ensureExists(schema); // readers see the table from the first epoch on
      tableChecked = true;
    }
    merge.commit(epoch, newestPerKey(staged));
  }

  /** Per key, the change with the greatest number: the table's columns and the delete flag. */
  private List<Object[]> newestPerKey(List<Object[]> staged) {
    int columns = schema.columns().size();
    Map<List<Object>, Object[]> newest = new LinkedHashMap<>();
    for (Object[] row : staged) {
      List<Object> key = new ArrayList<>(keyPositions.length);
      for (int position : keyPositions) {
        key.add(row[position]);
      }
      Object[] seen = newest.get(key);
      if (seen == null || (Long) seen[columns + 1] < (Long) row[columns + 1]) {
        newest.put(key, row);
      }
    }
    List<Object[]> out = new ArrayList<>(newest.size());
    for (Object[] row : newest.values()) {
      out.add(Arrays.copyOf(row, columns + 1));
    }
    return out;
  }

  @Override
  public String toString() {
    return "DeltaUpsert[" + table.path() + "]";
  }
}
