package io.lakestream.connectors.autoloader.format;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;

/**
 * A file that cannot be read as its format: not Parquet at all, truncated, or with corrupt pages.
 * Error class {@code FAILED_READ_FILE}, as Spark names it. Reading it again gives the same error,
 * so the query fails without in-job restarts unless {@code ignoreCorruptFiles=true} lets it skip
 * such files (each logged and counted in {@code numSkippedCorruptFiles}). Errors that may pass (the
 * object store timing out) stay {@link java.io.IOException}s and are retried.
 */
@PublicEvolving
public class CorruptFileException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  private final String path;

  public CorruptFileException(String path, String format, Throwable cause) {
    super(
        AutoLoaderErrorClass.FAILED_READ_FILE,
        "Auto Loader cannot read "
            + path
            + " as "
            + format
            + ": "
            + cause.getMessage()
            + ". The file is not "
            + format
            + ", or it is truncated or corrupt. Replace or remove it and restart the query (from its"
            + " checkpoint), or set ignoreCorruptFiles=true to skip such files (the rows read"
            + " before the damage are kept; each skipped file is logged and counted in"
            + " numSkippedCorruptFiles).",
        cause);
    this.path = path;
  }

  /** The file's full path. */
  public String path() {
    return path;
  }
}
