package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;

/**
 * A Lakebase sink writer of either mode: the at-least-once {@link LakebaseSinkWriter} (nothing to
 * commit, no state) or the exactly-once {@link LakebaseStagingWriter} (one {@link StagedEpoch} per
 * epoch; stateful only to learn checkpoint ids).
 *
 * @param <T> the stream's element type
 */
@Internal
public interface LakebaseWriter<T>
    extends CommittingSinkWriter<T, StagedEpoch>, StatefulSinkWriter<T, StagedEpoch> {}
