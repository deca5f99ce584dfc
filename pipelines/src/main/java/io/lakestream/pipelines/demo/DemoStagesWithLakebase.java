package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.lakestream.pipelines.EmbeddedStages;
import io.lakestream.pipelines.Pipeline;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The demo's stages while its PostgreSQL server runs: silver, gold and {@link DemoLakebase}; the
 * summary adds the PostgreSQL table's line to the Delta tables'. {@link #close()} stops the server
 * and says so when it cannot.
 */
@Internal
final class DemoStagesWithLakebase implements EmbeddedStages {
  private final DemoPostgres server;
  private final String goldPath;
  private final Supplier<List<String>> deltaSummary;

  DemoStagesWithLakebase(DemoPostgres server, String goldPath, Supplier<List<String>> summary) {
    this.server = server;
    this.goldPath = goldPath;
    this.deltaSummary = summary;
  }

  @Override
  public List<Pipeline> stages() {
    return List.of(new DemoSilver(), new DemoGold(), new DemoLakebase(server.jdbcUrl()));
  }

  @Override
  public List<String> summary() {
    List<String> lines = new ArrayList<>(deltaSummary.get());
    try {
      lines.add(lines.size() - 1, DemoLakebase.summaryLine(server, goldPath));
    } catch (SQLException e) {
      lines.add(
          "  lakebase: cannot read public." + DemoLakebase.TABLE + " (" + e.getMessage() + ")");
    }
    return lines;
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException | RuntimeException e) {
      System.out.printf(
          "The demo's PostgreSQL server at %s did not stop cleanly: %s%n", server.jdbcUrl(), e);
    }
  }
}
