package io.lakestream.testkit.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Main class of the child JVM that runs a single-node KRaft Kafka broker for tests.
 *
 * <p>Usage: {@code ParentWatchingLauncher <server.properties> <cluster-id> [<directory>]}. It
 *
 * <ol>
 *   <li>starts a daemon thread that reads standard input and halts this JVM as soon as it reaches
 *       end-of-file or fails, after deleting {@code <directory>} (the broker's data and logs) if
 *       given. The parent keeps the write end of that pipe open for as long as it wants the broker,
 *       so the broker also dies when the parent JVM dies for any reason, {@code kill -9} included:
 *       the operating system closes the pipe;
 *   <li>formats the storage directories named in the properties file with the given cluster id
 *       (like {@code kafka-storage format -t <id> -c <file> --ignore-formatted}), exiting with
 *       status {@value #FORMAT_FAILED} if that fails;
 *   <li>runs {@code kafka.Kafka.main} with the properties file, which blocks until the broker shuts
 *       down (for example on SIGTERM).
 * </ol>
 *
 * <p>The launcher lives in this module so that its class path (the broker's jars, listed in the
 * resource {@value #CLASSPATH_RESOURCE}) never needs to be on the class path of the tests.
 */
public final class ParentWatchingLauncher {

  /** Class path resource holding the broker's runtime class path, entries separated by ':'. */
  public static final String CLASSPATH_RESOURCE = "io/lakestream/testkit/kafka/broker.classpath";

  /** Exit status when formatting the storage fails. */
  public static final int FORMAT_FAILED = 3;

  /** Exit status when standard input reaches end-of-file, i.e. the parent is gone or stops us. */
  public static final int PARENT_GONE = 143;

  private ParentWatchingLauncher() {}

  /**
   * Runs the broker; see the class comment.
   *
   * @param args the path of the broker's properties file and the cluster id to format storage with
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2 && args.length != 3) {
      System.err.println(
          "usage: "
              + ParentWatchingLauncher.class.getName()
              + " <server.properties> <cluster-id> [<directory-to-delete-when-the-parent-dies>]");
      System.exit(2);
    }
    watchParent(System.in, args.length == 3 ? Paths.get(args[2]) : null);
    Path properties = Paths.get(args[0]);
    if (!Files.isRegularFile(properties)) {
      System.err.println("broker properties file not found: " + properties);
      System.exit(2);
    }
    int formatStatus =
        kafka.tools.StorageTool.execute(
            new String[] {
              "format", "-t", args[1], "-c", properties.toString(), "--ignore-formatted"
            },
            System.out);
    if (formatStatus != 0) {
      System.err.println("kafka storage format failed with status " + formatStatus);
      System.exit(FORMAT_FAILED);
    }
    kafka.Kafka.main(new String[] {properties.toString()});
  }

  private static void watchParent(InputStream in, Path deleteWhenParentDies) {
    Thread watcher =
        new Thread(
            () -> {
              byte[] buffer = new byte[256];
              try {
                while (in.read(buffer) >= 0) {
                  // The parent writes nothing; anything it does write is ignored.
                }
              } catch (IOException e) {
                // A broken pipe means the same as end-of-file: the parent is gone.
              }
              if (deleteWhenParentDies != null) {
                deleteRecursively(deleteWhenParentDies);
              }
              Runtime.getRuntime().halt(PARENT_GONE);
            },
            "parent-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }

  /** Best effort: the broker may still be writing while this runs. */
  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.deleteIfExists(path);
                } catch (IOException | RuntimeException e) {
                  // keep going: delete as much as possible before halting
                }
              });
    } catch (IOException | RuntimeException e) {
      // nothing more to do: the JVM halts next
    }
  }
}
