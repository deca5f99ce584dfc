package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * The validated options of a Lakebase sink ({@link LakebaseSinkOptions#parse}). Its {@code
 * toString} holds no password.
 *
 * @param endpoint where to connect
 * @param table the target table
 * @param upsertKey the key given by option upsertkey; empty when not given (then inferred from the
 *     table)
 * @param batchSize rows per transaction at most
 * @param batchInterval longest time a row waits before a flush
 * @param checkpointLocation the query's checkpoint location
 * @param maxRetries retries after transient errors
 * @param retryBackoff wait before the first retry
 * @param tasksPerConnection sink tasks of one TaskManager sharing a connection
 * @param exactlyOnce epochs staged and applied on checkpoint completion (option deliveryGuarantee)
 * @param versionColumn the upserts' version guard column (option versioncolumn), or null
 * @param copy batches sent by binary COPY (option writeMethod copy), else by UNNEST arrays
 */
@Internal
public record LakebaseSinkConfig(
    PostgresEndpoint endpoint,
    PostgresTableName table,
    List<String> upsertKey,
    int batchSize,
    Duration batchInterval,
    String checkpointLocation,
    int maxRetries,
    Duration retryBackoff,
    int tasksPerConnection,
    boolean exactlyOnce,
    String versionColumn,
    boolean copy)
    implements Serializable {
  public LakebaseSinkConfig {
    upsertKey = List.copyOf(upsertKey);
  }
}
