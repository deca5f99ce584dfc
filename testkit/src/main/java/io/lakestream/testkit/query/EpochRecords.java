package io.lakestream.testkit.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The sinks' commit records of a query's local checkpoint location ({@code commits/N/<sink>}, one
 * JSON file per epoch and sink, written when the sink's committer is done with epoch N: committed,
 * skipped as already committed, or empty), and waits on them.
 *
 * <p>A commit record for epoch N means every commit of the epochs before it has run: tests wait for
 * one instead of sleeping when they need "anything still in flight has landed now". Reads fail with
 * {@link UncheckedIOException}; waits fail with {@link AssertionError} on timeout.
 */
public final class EpochRecords {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private EpochRecords() {}

  /** The newest epoch with a commit record of any sink; 0 when there is none yet. */
  public static long lastCommittedEpoch(Path checkpointLocation) {
    Path commits = checkpointLocation.resolve("commits");
    if (!Files.isDirectory(commits)) {
      return 0;
    }
    try (Stream<Path> epochs = Files.list(commits)) {
      return epochs
          .map(p -> p.getFileName().toString())
          .filter(name -> name.matches("\\d+"))
          .mapToLong(Long::parseLong)
          .max()
          .orElse(0);
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + commits, e);
    }
  }

  /**
   * Waits until some sink recorded the commit of epoch {@code epoch} or a later one.
   *
   * @return the newest recorded epoch
   * @throws AssertionError if none is recorded within {@code timeout}
   */
  public static long awaitCommittedEpoch(Path checkpointLocation, long epoch, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long last = lastCommittedEpoch(checkpointLocation);
      if (last >= epoch) {
        return last;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "no commit record of epoch "
                + epoch
                + " or later in "
                + checkpointLocation
                + " within "
                + timeout
                + " (newest: "
                + last
                + ")");
      }
      Thread.sleep(50);
    }
  }

  /**
   * Waits until {@code more} epochs after the newest recorded one now are recorded: whatever was in
   * flight when called (a commit, a replay after a restore) has been committed by then.
   */
  public static long awaitMoreEpochs(Path checkpointLocation, int more, Duration timeout)
      throws InterruptedException {
    return awaitCommittedEpoch(
        checkpointLocation, lastCommittedEpoch(checkpointLocation) + more, timeout);
  }

  /** The commit records of {@code sink} (its uid), epoch to record, oldest first. */
  public static Map<Long, JsonNode> records(Path checkpointLocation, String sink) {
    Map<Long, JsonNode> out = new TreeMap<>();
    Path commits = checkpointLocation.resolve("commits");
    if (!Files.isDirectory(commits)) {
      return out;
    }
    String file = sink.replaceAll("[^A-Za-z0-9._-]", "_");
    try (Stream<Path> epochs = Files.list(commits)) {
      for (Path epoch : epochs.toList()) {
        Path record = epoch.resolve(file);
        if (epoch.getFileName().toString().matches("\\d+") && Files.isRegularFile(record)) {
          out.put(Long.parseLong(epoch.getFileName().toString()), MAPPER.readTree(record.toFile()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the commit records in " + commits, e);
    }
    return out;
  }
}
