/**
 * The discovery half of Auto Loader as a FLIP-27 source ({@link
 * io.lakestream.connectors.autoloader.source.FileDiscoverySource}, built by {@code
 * AutoLoaderBuilder}): it emits each new file of the input directory as a {@code DiscoveredFile}
 * within the per-epoch file limits; the file ledger downstream reads them. The enumerator, reader
 * and splits are in the subpackages. Internal to Auto Loader.
 */
package io.lakestream.connectors.autoloader.source;
