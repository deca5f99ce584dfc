package io.lakestream.state.checkpoint;

import io.lakestream.api.annotation.Internal;
import io.lakestream.state.StateErrorClass;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the {@link CreateIfAbsent} for a path, once per scheme and process:
 *
 * <ul>
 *   <li>{@code file}: {@link LocalLinkCreate};
 *   <li>a scheme a registered {@link CreateIfAbsent.Factory} serves (S3: {@code s3}, {@code s3a},
 *       {@code s3p}), made from the Flink configuration given to {@link #configure}, else the one
 *       in {@code FLINK_CONF_DIR} (a cluster's JobManager), else an empty one (credentials from the
 *       environment);
 *   <li>another object store (Google Cloud Storage, Azure, OSS) or S3 without a factory: refused
 *       with {@link StateErrorClass#CHECKPOINT_LOCATION_LEASE_UNSUPPORTED}, since a plain write
 *       there lets two runs both take the lease;
 *   <li>any other file system (HDFS): Flink's {@code create(NO_OVERWRITE)}, which is atomic where
 *       the file system's create is (HDFS's is), with a warning saying so.
 * </ul>
 */
@Internal
public final class CreateIfAbsentSelection {
  private static final Logger LOG = LoggerFactory.getLogger(CreateIfAbsentSelection.class);
  private static final Set<String> OBJECT_STORES =
      Set.of("s3", "s3a", "s3p", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss");
  private static final Map<String, CreateIfAbsent> BY_SCHEME = new ConcurrentHashMap<>();
  private static volatile Configuration configured;

  private CreateIfAbsentSelection() {}

  /**
   * Uses {@code flinkConfiguration} (the one the process initialised Flink's file systems with) for
   * the object store factories from now on.
   */
  public static void configure(Configuration flinkConfiguration) {
    configured = new Configuration(flinkConfiguration);
    BY_SCHEME.clear();
  }

  /**
   * The create-if-absent for {@code path}'s file system.
   *
   * @throws CheckpointLocationException if the file system has none that two machines can rely on
   * @throws IOException if the factory cannot start (a client library or a setting is missing)
   */
  public static CreateIfAbsent forPath(Path path) throws IOException {
    String scheme = path.toUri().getScheme();
    String key = scheme == null ? "file" : scheme.toLowerCase(Locale.ROOT);
    if (key.equals("file")) {
      return LocalLinkCreate.INSTANCE;
    }
    CreateIfAbsent known = BY_SCHEME.get(key);
    if (known == null) {
      known = select(key, path);
      BY_SCHEME.put(key, known);
    }
    return known;
  }

  private static CreateIfAbsent select(String scheme, Path path) throws IOException {
    for (CreateIfAbsent.Factory factory :
        ServiceLoader.load(
            CreateIfAbsent.Factory.class, CreateIfAbsentSelection.class.getClassLoader())) {
      if (factory.schemes().contains(scheme)) {
        return factory.create(configuration());
      }
    }
    if (OBJECT_STORES.contains(scheme)) {
      throw new CheckpointLocationException(
          StateErrorClass.CHECKPOINT_LOCATION_LEASE_UNSUPPORTED,
          "The checkpoint location "
              + path
              + " is on an object store ("
              + scheme
              + "://) where lakestream cannot create its lease file only if absent, so two runs"
              + " started at once could both take it. For S3, put the Delta connector"
              + " (lakestream-delta-core) and Hadoop S3A 3.4.2 or newer (hadoop-aws) on the"
              + " classpath; otherwise put the checkpoint location on S3, HDFS or a local disk.");
    }
    LOG.warn(
        "Checkpoint locations on {}:// take their lease with the file system's create without"
            + " overwrite: two runs started at the same instant are kept apart only if that create"
            + " is atomic (it is on HDFS).",
        scheme);
    return CreateIfAbsentSelection::createWithoutOverwrite;
  }

  private static boolean createWithoutOverwrite(Path path, byte[] contents) throws IOException {
    FileSystem fs = path.getFileSystem();
    if (fs.exists(path)) {
      return false;
    }
    try (OutputStream out = fs.create(path, FileSystem.WriteMode.NO_OVERWRITE)) {
      out.write(contents);
      return true;
    } catch (IOException e) {
      if (fs.exists(path)) {
        return false;
      }
      throw e;
    }
  }

  private static Configuration configuration() {
    Configuration conf = configured;
    if (conf != null) {
      return conf;
    }
    return System.getenv("FLINK_CONF_DIR") != null
        ? GlobalConfiguration.loadConfiguration()
        : new Configuration();
  }
}
