/**
 * Auto Loader's discovery enumerator ({@link
 * io.lakestream.connectors.autoloader.source.enumerator.FileDiscoveryEnumerator}): once per epoch
 * it lists the input path after the cursor or polls S3 event notifications, runs full listings for
 * files those missed, and hands new files to readers within {@code maxFilesPerTrigger} (hard) and
 * {@code maxBytesPerTrigger} (soft), as {@link
 * io.lakestream.connectors.autoloader.source.enumerator.DiscoverySettings} say. Its checkpoint
 * ({@link io.lakestream.connectors.autoloader.source.enumerator.DiscoveryState}) holds the cursor
 * and the files not yet handed out, never a set of seen files. Internal to Auto Loader.
 */
package io.lakestream.connectors.autoloader.source.enumerator;
