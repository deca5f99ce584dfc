package io.lakestream.connectors.lakebase.sink.writer;

/**
 * Every case of {@link PostgresBatchWriterITCase} with option writeMethod copy: batches sent by
 * binary COPY into the session's temporary table and upserted from it, with the same results,
 * retries and error reports (a failed batch is replayed row by row to name the row and column).
 */
class PostgresBatchWriterCopyITCase extends PostgresBatchWriterITCase {
  @Override
  boolean copy() {
    return true;
  }
}
