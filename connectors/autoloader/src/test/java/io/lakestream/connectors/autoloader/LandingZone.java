package io.lakestream.connectors.autoloader;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Writes input files under a landing directory (local or s3a://) through Hadoop. */
public final class LandingZone {
  private final String root;
  private final FileSystem fs;

  public LandingZone(String root, Map<String, String> hadoopConf) throws IOException {
    this.root = root.replaceAll("/+$", "");
    Configuration conf = new Configuration();
    hadoopConf.forEach(conf::set);
    conf.set("fs.s3a.create.performance", "true"); // test input: skip S3A's overwrite checks
    this.fs = FileSystem.get(URI.create(this.root), conf);
  }

  public String root() {
    return root;
  }

  /** Writes {@code lines} as the file {@code key} (relative to the root). */
  public void write(String key, List<String> lines) throws IOException {
    try (OutputStream out = fs.create(new Path(root + "/" + key), true)) {
      for (String line : lines) {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /** Writes many files with 8 threads. */
  public void writeAll(Map<String, List<String>> files) throws IOException {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      List<java.util.concurrent.Future<?>> writes = new java.util.ArrayList<>();
      for (Map.Entry<String, List<String>> file : files.entrySet()) {
        writes.add(
            pool.submit(
                () -> {
                  write(file.getKey(), file.getValue());
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> write : writes) {
        write.get();
      }
    } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
      throw new IOException(e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A JSON-lines file of {@code rows} records {@code {"id":n,"name":"row-n"}} from {@code first}.
   */
  public void writeRows(String key, long first, int rows) throws IOException {
    java.util.List<String> lines = new java.util.ArrayList<>();
    for (long id = first; id < first + rows; id++) {
      lines.add("{\"id\":" + id + ",\"name\":\"row-" + id + "\"}");
    }
    write(key, lines);
  }
}
