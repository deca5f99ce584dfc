/**
 * Listing the input directory in key order, starting after a key, the way S3's {@code
 * ListObjectsV2} does with {@code start-after} ({@link
 * io.lakestream.connectors.autoloader.discovery.FileLister}, one page a {@link
 * io.lakestream.connectors.autoloader.discovery.FileListing}): on S3 through S3A's client, one
 * request per 1,000 keys ({@link io.lakestream.connectors.autoloader.discovery.S3ObjectLister}); on
 * other Hadoop file systems a tree walk that skips directories sorting before the cursor ({@link
 * io.lakestream.connectors.autoloader.discovery.HadoopTreeLister}). Hidden files ({@code _x},
 * {@code .x}) are skipped. A found file is a {@link
 * io.lakestream.connectors.autoloader.discovery.DiscoveredFile}, keyed by its path relative to the
 * input directory.
 */
package io.lakestream.connectors.autoloader.discovery;
