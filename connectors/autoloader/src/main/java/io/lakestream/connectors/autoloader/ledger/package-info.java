/**
 * The discovered-file ledger ({@link
 * io.lakestream.connectors.autoloader.ledger.FileLedgerFunction}): keyed by file, it reads each new
 * file's rows within one call (so no checkpoint barrier falls inside a file) and drops a file it
 * has seen, so each file is read exactly once per query. The ledger is Flink keyed state, one
 * {@code Long} per file (on disk with RocksDB), not a set on the heap. With {@code
 * cloudFiles.maxFileAge} it holds only the files modified within the max age: entries expire by
 * timer ({@link io.lakestream.connectors.autoloader.ledger.FileLedgerOperator} gives restored
 * entries theirs) and an older file is refused, so none is read twice. Its class name is in
 * savepoints: do not rename or move it.
 */
package io.lakestream.connectors.autoloader.ledger;
