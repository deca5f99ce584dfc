package io.lakestream.connectors.files;

import io.lakestream.api.annotation.Internal;

/**
 * A finished data file written by one writer in one epoch, still in the staging directory.
 *
 * @param stagingPath where the writer left it
 * @param finalPath where the commit moves it
 * @param numRows rows in the file
 * @param numBytes file size
 */
@Internal
public record StagedFile(String stagingPath, String finalPath, long numRows, long numBytes) {}
