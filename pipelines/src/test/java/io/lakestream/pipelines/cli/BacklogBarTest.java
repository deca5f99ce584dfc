package io.lakestream.pipelines.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.runtime.QueryProgress;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BacklogBarTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static QueryProgress epoch(String sources, long rows, Instant start) throws Exception {
    return new QueryProgress(
        MAPPER.readTree(
            "{\"name\":\"demo\",\"timestamp\":\""
                + start
                + "\",\"numInputRows\":"
                + rows
                + ",\"sources\":["
                + sources
                + "]}"));
  }

  /** 20,000 rows over two partitions: 5,000 read in 1 s leave 15,000, 3 s at 5,000 rows/s. */
  @Test
  void showsRowsDoneOfTheBacklogTheRateAndTheTimeLeft() throws Exception {
    BacklogBar bar = new BacklogBar();
    String first =
        "{\"startOffset\":null,\"endOffset\":{\"p0\":2500,\"p1\":2500},"
            + "\"latestOffset\":{\"p0\":10000,\"p1\":10000}}";
    assertThat(bar.add(epoch(first, 5_000, T0), T0.plusSeconds(1)))
        .isEqualTo("demo [#####...............]  25% 5,000/20,000 rows 5,000 rows/s ETA 3s");

    String second =
        "{\"endOffset\":{\"p0\":10000,\"p1\":10000},\"latestOffset\":{\"p0\":10000,\"p1\":10000}}";
    assertThat(bar.add(epoch(second, 15_000, T0.plusSeconds(1)), T0.plusSeconds(4)))
        .isEqualTo("demo [####################] 100% 20,000/20,000 rows 5,000 rows/s ETA 0s");
  }

  /** Kafka's positions nest partitions under topics; they count rows all the same. */
  @Test
  void countsNestedPositions() throws Exception {
    String kafka =
        "{\"endOffset\":{\"orders\":{\"0\":10,\"1\":20}},"
            + "\"latestOffset\":{\"orders\":{\"0\":40,\"1\":50}}}";
    assertThat(BacklogBar.rowsLeft(MAPPER.readTree("[" + kafka + "]"))).hasValue(60);
  }

  /**
   * Positions that are not row counts (a Delta version and index) give no percentage or ETA; files
   * outstanding are shown as such.
   */
  @Test
  void showsNoGuessForPositionsThatAreNotRowCounts() throws Exception {
    String delta =
        "{\"endOffset\":{\"reservoirVersion\":3,\"index\":-1,\"isStartingVersion\":false},"
            + "\"latestOffset\":{\"reservoirVersion\":5,\"index\":-1,\"isStartingVersion\":false}}";
    assertThat(new BacklogBar().add(epoch(delta, 100, T0), T0.plusSeconds(1)))
        .isEqualTo("demo 100 rows 100 rows/s");
    String files =
        "{\"endOffset\":{\"files\":3},\"latestOffset\":{\"files\":3},"
            + "\"metrics\":{\"numFilesOutstanding\":7}}";
    assertThat(new BacklogBar().add(epoch(files, 100, T0), T0.plusSeconds(1)))
        .isEqualTo("demo 100 rows, 7 files outstanding 100 rows/s");
  }
}
