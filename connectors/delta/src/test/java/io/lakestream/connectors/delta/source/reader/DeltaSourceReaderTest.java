package io.lakestream.connectors.delta.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaAddedFile;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaDataFileReader;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableChanges;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;
import io.lakestream.connectors.schema.ColumnType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSourceReaderTest {
  /** Outside a query: counts nothing. */
  private static final io.lakestream.state.query.InputRowCount NO_COUNT =
      new io.lakestream.state.query.InputRowCount(null, "src", 0, 1, 0);

  private static final NestedRowValues FLAT =
      NestedRowValues.of(new RowTypeInfo(Types.LONG, Types.STRING));

  private static final long ROWS = 1_300;
  private static final DeltaTableSchema SCHEMA =
      DeltaTableSchema.builder()
          .column("id", ColumnType.LONG, false)
          .column("part", ColumnType.STRING)
          .partitionedBy("part")
          .build();

  @TempDir Path dir;

  @Test
  void aRestoredReaderSkipsTheRowsEmittedBeforeTheCheckpoint() throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve("t").toUri().toString());
    List<Object[]> rows = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      rows.add(new Object[] {id, "p1"});
    }
    DeltaAppendCommit commit = new DeltaAppendCommit(table, SCHEMA, "app");
    commit.open();
    commit.commit(1, new DeltaTableWriter(table, SCHEMA).write(rows));
    String schema = table.latestSnapshot().orElseThrow().getSchema().toJson();
    List<DeltaAddedFile> files =
        new DeltaTableChanges(table, schema, false, false).versionFiles(1, 1);
    assertThat(files).hasSize(1);
    DeltaDataFileReader fileReader = new DeltaDataFileReader(table, schema, List.of("part"));

    TestingReaderContext context = new TestingReaderContext();
    DeltaSourceReader first = new DeltaSourceReader(context, fileReader, FLAT, NO_COUNT);
    first.start();
    assertThat(context.getNumSplitRequests()).isEqualTo(1); // asks for work when it has none
    first.addSplits(List.of(DeltaSourceSplit.of(files.get(0))));
    TestingReaderOutput<Row> output = new TestingReaderOutput<>();
    first.pollNext(output);
    first.pollNext(output);
    long emitted = output.getEmittedRecords().size();
    assertThat(emitted).isPositive().isLessThan(ROWS);
    List<DeltaSourceSplit> state = first.snapshotState(1);
    assertThat(state).singleElement().satisfies(s -> assertThat(s.rowsToSkip()).isEqualTo(emitted));
    first.close(); // the task fails here; rows after the checkpoint are replayed by the restore

    TestingReaderContext context2 = new TestingReaderContext();
    DeltaSourceReader restored = new DeltaSourceReader(context2, fileReader, FLAT, NO_COUNT);
    restored.addSplits(state);
    restored.start();
    assertThat(context2.getNumSplitRequests()).isZero();
    TestingReaderOutput<Row> output2 = new TestingReaderOutput<>();
    InputStatus status;
    do {
      status = restored.pollNext(output2);
    } while (status == InputStatus.MORE_AVAILABLE);
    assertThat(status).isEqualTo(InputStatus.NOTHING_AVAILABLE);
    assertThat(context2.getNumSplitRequests()).isEqualTo(1); // finished: asks for more
    assertThat(restored.snapshotState(2)).isEmpty();
    restored.notifyNoMoreSplits();
    assertThat(restored.pollNext(output2)).isEqualTo(InputStatus.END_OF_INPUT);

    List<Long> ids = new ArrayList<>();
    output.getEmittedRecords().forEach(r -> ids.add((Long) r.getField(0)));
    output2.getEmittedRecords().forEach(r -> ids.add((Long) r.getField(0)));
    ids.sort(null);
    assertThat(ids).isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
    assertThat(output2.getEmittedRecords())
        .allSatisfy(r -> assertThat(r.getField(1)).isEqualTo("p1"));
    restored.close();
  }
}
