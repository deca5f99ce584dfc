package io.lakestream.connectors.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering of delta-core's main sources: Delta Kernel's internals are used only in the adapter
 * package {@code io.lakestream.connectors.delta.kernel}, and nothing refers to the Flink side of
 * the connector ({@code io.lakestream.connectors.delta.sink}, {@code .source}, {@code .cdf.source}
 * live in connectors/delta). Any mention in code counts: imports and qualified names.
 */
class KernelInternalsConfinementTest {
  private static final Path MAIN = Path.of("src/main/java");
  private static final Path ADAPTER = MAIN.resolve("io/lakestream/connectors/delta/kernel");

  /** Kernel's and its default engine's internal packages. */
  static final Pattern KERNEL_INTERNALS =
      Pattern.compile("\\bio\\.delta\\.kernel\\.(defaults\\.)?internal\\.");

  /** The Flink side of the Delta connector. */
  static final Pattern FLINK_SIDE =
      Pattern.compile("\\bio\\.lakestream\\.connectors\\.delta\\.(sink|source|cdf\\.source)\\b");

  @Test
  void onlyTheAdapterPackageUsesKernelInternals() {
    List<Path> sources = mainSources();
    assertThat(sources).hasSizeGreaterThan(40);

    List<String> offenders =
        sources.stream()
            .filter(f -> !f.getParent().equals(ADAPTER))
            .filter(f -> mentions(f, KERNEL_INTERNALS))
            .map(Path::toString)
            .toList();

    assertThat(offenders)
        .as(
            "delta-core files outside %s that use Kernel internals (wrap what they need in a"
                + " documented type of that package instead)",
            ADAPTER)
        .isEmpty();
    // the scan sees the internals where they are
    assertThat(mentions(ADAPTER.resolve("KernelScanFile.java"), KERNEL_INTERNALS)).isTrue();
  }

  @Test
  void nothingRefersToTheFlinkSideOfTheConnector() {
    List<String> offenders =
        mainSources().stream().filter(f -> mentions(f, FLINK_SIDE)).map(Path::toString).toList();

    assertThat(offenders)
        .as("delta-core is Flink-free: these files refer to connectors/delta's Flink packages")
        .isEmpty();
  }

  @Test
  void thePatternsMatchWhatTheyBan() {
    assertThat(KERNEL_INTERNALS.matcher("import io.delta.kernel.internal.fs.Path;").find())
        .isTrue();
    assertThat(
            KERNEL_INTERNALS
                .matcher("new io.delta.kernel.defaults.internal.data.DefaultColumnarBatch(")
                .find())
        .isTrue();
    assertThat(KERNEL_INTERNALS.matcher("import io.delta.kernel.Snapshot;").find()).isFalse();
    assertThat(
            FLINK_SIDE
                .matcher("import io.lakestream.connectors.delta.source.split.DeltaSourceSplit;")
                .find())
        .isTrue();
    assertThat(FLINK_SIDE.matcher("import io.lakestream.connectors.delta.cdf.source.X;").find())
        .isTrue();
    assertThat(
            FLINK_SIDE.matcher("import io.lakestream.connectors.delta.cdf.DeltaChangeLog;").find())
        .isFalse();
  }

  private static List<Path> mainSources() {
    try (Stream<Path> files = Files.walk(MAIN)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean mentions(Path file, Pattern pattern) {
    try {
      return pattern.matcher(Files.readString(file)).find();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
