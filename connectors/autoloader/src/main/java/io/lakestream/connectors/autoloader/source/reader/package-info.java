/**
 * Auto Loader's discovery reader ({@link
 * io.lakestream.connectors.autoloader.source.reader.FileBatchReader}): emits the discovered files
 * of its splits, one per call, exactly once per checkpointed position, and asks for more when it
 * has none. It does not read the files; the file ledger does. Internal to Auto Loader.
 */
package io.lakestream.connectors.autoloader.source.reader;
