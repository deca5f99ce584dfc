package io.lakestream.testkit.flink;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.PluginDescriptor;
import org.apache.flink.core.plugin.PluginManager;

/**
 * The {@code flink-s3-fs-hadoop} file system (schemes {@code s3://} and {@code s3a://}) loaded as a
 * Flink plugin, in its own class loader, the way a Flink distribution loads it from {@code
 * plugins/s3-fs-hadoop/}.
 *
 * <p>The jar bundles unrelocated Hadoop, Guava, Jackson and Apache HTTP classes; on the test class
 * path it breaks s3proxy (old Jackson annotations win) and would clash with Delta's Hadoop. So the
 * testkit build resolves the jar into the local Maven repository without making it a dependency,
 * and records its path in the resource {@value #LOCATION_RESOURCE}.
 *
 * <p>One plugin class loader is created per JVM and shared. {@link #initializeFileSystems} is
 * JVM-global, like {@link FileSystem#initialize}: the last configuration wins.
 */
public final class S3FileSystemPlugin {

  /** Resource with the absolute path of the flink-s3-fs-hadoop jar. */
  public static final String LOCATION_RESOURCE =
      "io/lakestream/testkit/flink/s3-fs-hadoop.location";

  private static PluginManager pluginManager;

  private S3FileSystemPlugin() {}

  /**
   * The plugin manager that loads flink-s3-fs-hadoop; pass it to {@link FileSystem#initialize} and
   * to a mini cluster.
   *
   * @throws IllegalStateException if the resource or the jar it names is missing
   */
  public static synchronized PluginManager pluginManager() {
    if (pluginManager == null) {
      URL jar = jarUrl();
      PluginDescriptor descriptor =
          new PluginDescriptor("s3-fs-hadoop", new URL[] {jar}, new String[0]);
      pluginManager =
          new DefaultPluginManager(
              List.of(descriptor),
              CoreOptions.getPluginParentFirstLoaderPatterns(new Configuration()));
    }
    return pluginManager;
  }

  /**
   * Initializes Flink's file systems with {@code configuration} (e.g. an S3 server's Flink
   * configuration) and the S3 plugin, so that {@code s3://} paths resolve in this JVM.
   *
   * @throws IllegalStateException if the plugin jar cannot be found
   */
  public static void initializeFileSystems(Configuration configuration) {
    FileSystem.initialize(configuration, pluginManager());
  }

  private static URL jarUrl() {
    String location;
    try (InputStream in =
        S3FileSystemPlugin.class.getClassLoader().getResourceAsStream(LOCATION_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource "
                + LOCATION_RESOURCE
                + " not found: is lakestream-testkit on the class path?");
      }
      location = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + LOCATION_RESOURCE, e);
    }
    Path jar = Path.of(location);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "flink-s3-fs-hadoop jar not found at "
              + jar
              + ": rebuild the testkit on this machine (mvn install -pl testkit), which resolves it");
    }
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalStateException("bad path " + jar, e);
    }
  }
}
