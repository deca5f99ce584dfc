package io.lakestream.connectors.autoloader.format;

import java.io.IOException;

/**
 * A step of a format library's reader (open a file, read a record), which each format's {@code
 * guarded} wrapper runs to tell a damaged file ({@link CorruptFileException}) from an I/O error of
 * the file system (retried).
 */
@FunctionalInterface
interface ReaderStep<T> {
  T run() throws IOException;
}
