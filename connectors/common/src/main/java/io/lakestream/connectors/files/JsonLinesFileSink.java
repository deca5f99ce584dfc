package io.lakestream.connectors.files;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.sink.CommitRecordListener;
import io.lakestream.connectors.sink.EpochListener;
import io.lakestream.connectors.sink.EpochSink;
import io.lakestream.state.Locations;
import io.lakestream.state.query.QueryContext;
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
 * completed; a restore never duplicates rows. A sink of a query ({@link #create(String, RowEncoder,
 * QueryContext, String)}) marks its epochs with the query's app id, so a new query on the same
 * directory (a new checkpoint location restarts the epochs at 1) writes all its rows.
 */
@PublicEvolving
public final class JsonLinesFileSink {
  static final String STAGING_DIR = "_staging";
  static final String COMMITS_DIR = "_commits";

  private JsonLinesFileSink() {}

  /**
   * The sink {@code sinkName} (its uid) of {@code query} into {@code directory}: epochs are marked
   * with the query's app id, and each is recorded in the query's checkpoint location.
   */
  public static <T> EpochSink<T, StagedFile> create(
      String directory, RowEncoder<T> encoder, QueryContext query, String sinkName) {
    String dir = tableDir(directory);
    return build(
        dir,
        encoder,
        new CommitRecordListener(query, sinkName, "json-lines " + directory),
        query.appId());
  }

  /**
   * A sink into {@code directory}, encoding rows with {@code encoder}, whose epoch markers name no
   * query: a marker of an epoch from any earlier writer makes it skip that epoch.
   */
  public static <T> EpochSink<T, StagedFile> create(
      String directory, RowEncoder<T> encoder, EpochListener listener) {
    return build(tableDir(directory), encoder, listener, null);
  }

  private static String tableDir(String directory) {
    Objects.requireNonNull(directory, "directory");
    // The target is part of the query's fingerprint: it must not change between runs.
    return new Path(Locations.absolute(directory)).toUri().toString();
  }

  private static <T> EpochSink<T, StagedFile> build(
      String dir, RowEncoder<T> encoder, EpochListener listener, String appId) {
    Objects.requireNonNull(encoder, "encoder");
    return new EpochSink<>(
        SinkKind.FILE,
        dir,
        context ->
            new JsonLinesWriter<>(
                encoder, new Path(dir), context.getTaskInfo().getIndexOfThisSubtask()),
        StagedFileSerializer::new,
        new StagedFileCommit(dir, appId),
        listener);
  }
}
