package io.lakestream.connectors.delta;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.Snapshot;
import io.lakestream.connectors.delta.dv.DeletionVectorStore;
import io.lakestream.connectors.delta.dv.RowIndexBitmap;
import io.lakestream.connectors.delta.kernel.KernelScanFile;
import io.lakestream.connectors.delta.kernel.KernelTablePath;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: a DELETE with deletion vectors, as Delta Spark commits it on a local table: for each
 * data file of the latest version, the given row indexes (positions in the file) join its deletion
 * vector; the commit removes the file with its old vector and adds the same path with the new one
 * (both {@code dataChange=true}, the add keeping the file's statistics).
 */
public final class DeletionVectorCommits {
  private static final ObjectMapper JSON = new ObjectMapper();

  private DeletionVectorCommits() {}

  /**
   * Deletes the rows at {@code positions} of every data file of the latest version; returns the new
   * version.
   */
  public static long deleteRows(DeltaTable table, long... positions) throws IOException {
    Snapshot snapshot = table.latestSnapshot().orElseThrow();
    String root =
        io.delta.kernel.Table.forPath(table.engine(), table.path()).getPath(table.engine());
    KernelTablePath rootPath = KernelTablePath.of(root);
    DeletionVectorStore store = new DeletionVectorStore(table);
    List<String> lines = new ArrayList<>();
    lines.add(
        "{\"commitInfo\":{\"operation\":\"DELETE\",\"timestamp\":"
            + System.currentTimeMillis()
            + "}}");
    KernelScanFile.forEach(
        table.engine(),
        snapshot.getScanBuilder().build(),
        true,
        file -> {
          DeltaDeletionVector old = file.deletionVector();
          RowIndexBitmap rows = old == null ? new RowIndexBitmap() : store.load(old);
          for (long p : positions) {
            rows.add(p);
          }
          DeltaDeletionVector dv = store.write(List.of(rows)).get(0);
          String path = rootPath.relativize(file.status().getPath());
          lines.add(action("remove", path, file, old, false));
          lines.add(action("add", path, file, dv, true));
        });
    long version = snapshot.getVersion() + 1;
    Path log = Path.of(URI.create(root.replaceAll("/+$", "") + "/_delta_log/"));
    Files.write(log.resolve(String.format("%020d.json", version)), lines);
    return version;
  }

  private static String action(
      String kind, String path, KernelScanFile file, DeltaDeletionVector dv, boolean add)
      throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("path", path);
    ObjectNode partitions = node.putObject("partitionValues");
    file.partitionValues().forEach(partitions::put);
    node.put("size", file.status().getSize());
    node.put("dataChange", true);
    if (add) {
      node.put("modificationTime", file.status().getModificationTime());
      node.put("stats", file.stats());
    } else {
      node.put("deletionTimestamp", System.currentTimeMillis());
      node.put("extendedFileMetadata", true);
    }
    if (dv != null) {
      dv.toJson(node.putObject("deletionVector"));
    }
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.set(kind, node);
    return JSON.writeValueAsString(wrapper);
  }
}
