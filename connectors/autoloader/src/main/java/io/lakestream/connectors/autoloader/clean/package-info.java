/**
 * {@code cloudFiles.cleanSource}: deleting or moving input files once they are processed ({@link
 * io.lakestream.connectors.autoloader.clean.SourceCleaner}, modes {@link
 * io.lakestream.connectors.autoloader.clean.CleanSourceMode}). The file ledger calls it only for
 * files whose epoch was committed longer ago than the retention; the files waiting are {@link
 * io.lakestream.connectors.autoloader.clean.CleanupEntry}s in the ledger's operator state. A file
 * already gone counts as cleaned; other failures are logged and retried later, and never fail the
 * query.
 */
package io.lakestream.connectors.autoloader.clean;
