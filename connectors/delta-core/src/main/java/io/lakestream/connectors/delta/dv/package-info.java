/**
 * Deletion vectors, as the Delta protocol defines them: the sets of row indexes of a data file that
 * a version marks deleted ({@link io.lakestream.connectors.delta.dv.RowIndexBitmap}, Delta's
 * RoaringBitmapArray format), and where they live ({@link
 * io.lakestream.connectors.delta.dv.DeletionVectorStore}: inline in the log, or in {@code
 * deletion_vector_<uuid>.bin} files beside the data files, each with its size and CRC-32 checksum).
 * Flink-free.
 */
package io.lakestream.connectors.delta.dv;
