/**
 * Auto Loader on Flink: incremental ingestion of files arriving in a directory (local, HDFS, or an
 * S3 prefix through S3A), like Databricks' {@code cloudFiles} source. Entry point: {@link
 * io.lakestream.connectors.autoloader.AutoLoaderBuilder}.
 *
 * <h2>Dataflow</h2>
 *
 * <pre>
 *  FileDiscoverySource (uid name)          keyBy(file key)      FileLedgerFunction (uid name-ledger)
 *  enumerator: list after the cursor  -->  DiscoveredFile  -->  ledger: ValueState&lt;Long&gt; per file
 *              + periodic full listing                          new file: read it, emit its rows
 *              or: S3 events from SQS                           seen file: drop
 *  reader: emit the files it is given                           read files: cleanSource
 * </pre>
 *
 * <h2>Where the discovered-file ledger lives (and why the heap stays flat)</h2>
 *
 * <p>The enumerator's checkpoint holds only the listing cursor (greatest key listed), counters, and
 * the files discovered but not yet handed out, at most a few listing pages. It keeps no set of seen
 * files. The set of processed files is the keyed state of {@link
 * io.lakestream.connectors.autoloader.ledger.FileLedgerFunction}: one {@code Long} per file key, in
 * whatever state backend the query uses; with RocksDB (the production setting) it is on local disk
 * and in the checkpoint, so millions of files do not grow the heap, and it is spread over the
 * ledger's parallel subtasks. With {@code cloudFiles.maxFileAge} (at least 14 days, as in
 * Databricks) an entry is evicted once its file is older than the max age, and the ledger refuses
 * files that old, so the state is bounded by the files modified within the max age.
 *
 * <p>Exactly once: the ledger reads a file's rows inside one {@code processElement} call, so a
 * checkpoint barrier never cuts a file. Every file emitted before a checkpoint's barrier is in that
 * checkpoint's ledger with all its rows before the barrier; every file after it is still in the
 * enumerator's or a reader's state and is emitted again after a restore. A file found twice (by a
 * full listing behind the cursor, or by a restarted availableNow run) is dropped by the ledger.
 * Trade-off: a very large file holds back the checkpoint while it is read; {@code
 * maxBytesPerTrigger} bounds an epoch, not a file.
 *
 * <h2>Listing</h2>
 *
 * <p>Incremental listings start after the cursor: on S3 one {@code ListObjectsV2} request with
 * {@code start-after} per 1,000 new keys ({@link
 * io.lakestream.connectors.autoloader.discovery.S3ObjectLister}); on other file systems a tree walk
 * that skips directories sorting before the cursor ({@link
 * io.lakestream.connectors.autoloader.discovery.HadoopTreeLister}). A file written with a key below
 * the cursor is found by the next full listing ({@code cloudFiles.useIncrementalListing=auto}:
 * after 7 incremental listings; {@code cloudFiles.backfillInterval}). One listing per epoch.
 *
 * <h2>File notification mode</h2>
 *
 * <p>{@code cloudFiles.useNotifications=true}: new files come from the S3 event notifications in an
 * SQS queue ({@link io.lakestream.connectors.autoloader.notification.S3EventQueue}) instead of
 * incremental listings; the same ledger reads each file once, so a repeated or redelivered
 * notification costs nothing. A message is deleted when a checkpoint that holds its files
 * completed; a query that fails before gets it again after the visibility timeout. Full listings
 * ({@code cloudFiles.backfillInterval}) find files whose event was lost.
 *
 * <h2>cleanSource</h2>
 *
 * <p>{@code cloudFiles.cleanSource=DELETE|MOVE}: the ledger remembers each file it read with the
 * checkpoint of its epoch and deletes or moves it ({@link
 * io.lakestream.connectors.autoloader.clean.SourceCleaner}) once that checkpoint completed longer
 * ago than {@code cloudFiles.cleanSource.retentionDuration}; a failure is logged and retried.
 *
 * <h2>Schema</h2>
 *
 * <p>Inferred on the first start from the newest files and recorded in {@code
 * <schemaLocation>/_schemas/0}; later starts read the newest version without inferring. {@code
 * addNewColumns} records {@code _schemas/N+1} and stops the stream with {@link
 * io.lakestream.connectors.autoloader.schema.UnknownFieldException}: the rebuilt query, restored
 * from its checkpoint, reads the file again with the new schema. The ledger's state does not depend
 * on the schema, so that restore works.
 */
package io.lakestream.connectors.autoloader;
