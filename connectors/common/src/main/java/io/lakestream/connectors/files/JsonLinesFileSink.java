package io.lakestream.connectors.files;

import io.lakestream.connectors.sink.EpochListener;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.Locations;
import io.lakestream.state.query.SinkKind;
import java.util.Objects;
import org.apache.flink.core.fs.Path;

/**
 * An exactly-once sink of JSON-lines files in a directory (local path or any Flink file system such
 * as {@code s3://}), committed once per epoch.
 *
 * <p>Layout: data files {@code part-*.jsonl} in the directory, staging files in {@code _staging/},
 * one marker per committed epoch in {@code _commits/}. Readers must ignore {@code _}-prefixed
 * directories (Spark, Flink and pandas do). A row is visible only after the checkpoint of its epoch
 * completed; a restore never duplicates rows.
 */
public final class JsonLinesFileSink {
  static final String STAGING_DIR = "_staging";
  static final String COMMITS_DIR = "_commits";

  private JsonLinesFileSink() {}

  /** A sink into {@code directory}, encoding rows with {@code encoder}. */
  public static <T> EpochSink<T, StagedFile> create(
      String directory, RowEncoder<T> encoder, EpochListener listener) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(encoder, "encoder");
    // The target is part of the query's fingerprint: it must not change between runs.
    String dir = new Path(Locations.absolute(directory)).toUri().toString();
    return new EpochSink<>(
        SinkKind.FILE,
        dir,
        context ->
            new JsonLinesWriter<>(
                encoder, new Path(dir), context.getTaskInfo().getIndexOfThisSubtask()),
        StagedFileSerializer::new,
        new StagedFileCommit(dir),
        listener);
  }
}
