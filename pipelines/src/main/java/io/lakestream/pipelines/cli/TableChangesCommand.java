package io.lakestream.pipelines.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.cdf.DeltaChangeDataFeed;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.state.Locations;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream table-changes --table <path> --starting-version v1 [--ending-version v2]}: the
 * batch replay / audit of a Delta table's change data feed, like Delta's {@code table_changes(t,
 * v1, v2)} or {@code spark.read.option("readChangeFeed", "true")}: prints every change row of the
 * versions with {@code _change_type}, {@code _commit_version} and {@code _commit_timestamp}.
 *
 * <p>Rows are ordered by commit version, then the table's first column, then change type ({@code
 * delete}, {@code insert}, {@code update_preimage}, {@code update_postimage}), so two runs print
 * the same text. A range with a version without {@code delta.enableChangeDataFeed=true}, or outside
 * the table's history, is a usage error (exit 2) whose message names the property or the valid
 * range.
 */
@Command(
    name = "table-changes",
    mixinStandardHelpOptions = true,
    description =
        "Print the change data feed of a Delta table for a range of versions (batch replay and"
            + " audit, as table_changes(table, start, end)).")
final class TableChangesCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> TYPE_ORDER =
      List.of("delete", "insert", "update_preimage", "update_postimage");

  @Option(
      names = "--table",
      required = true,
      paramLabel = "<path>",
      description = "The Delta table (local path, file:// or s3a:// URI).")
  String table;

  @Option(
      names = "--starting-version",
      required = true,
      paramLabel = "<version>",
      description = "First version (inclusive).")
  long startingVersion;

  @Option(
      names = "--ending-version",
      paramLabel = "<version>",
      description = "Last version (inclusive). Default: the table's latest version.")
  Long endingVersion;

  @Option(
      names = "--format",
      defaultValue = "table",
      paramLabel = "<format>",
      description = "table (aligned columns with a header) or json (one object per line).")
  String format;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (!format.equals("table") && !format.equals("json")) {
      throw new LakestreamException(
          PipelineErrorClass.CLI_INVALID_ARGUMENT,
          "--format must be 'table' or 'json', was '" + format + "'");
    }
    DeltaTable delta = DeltaTable.forPath(Locations.absolute(table));
    long end = endingVersion != null ? endingVersion : new DeltaTableReader(delta).latestVersion();
    DeltaChangeDataFeed feed = new DeltaChangeDataFeed(delta);
    List<Object[]> rows = new ArrayList<>(feed.read(startingVersion, end));
    List<String> columns = feed.columnNames(end);
    int type = columns.indexOf("_change_type");
    int version = columns.indexOf("_commit_version");
    rows.sort(
        Comparator.<Object[]>comparingLong(r -> (Long) r[version])
            .thenComparing(r -> String.valueOf(r[0]))
            .thenComparingInt(r -> TYPE_ORDER.indexOf((String) r[type])));
    PrintWriter out = spec.commandLine().getOut();
    if (format.equals("json")) {
      printJson(out, columns, rows);
    } else {
      printTable(out, columns, rows);
    }
    out.flush();
    return 0;
  }

  private static void printJson(PrintWriter out, List<String> columns, List<Object[]> rows) {
    for (Object[] row : rows) {
      ObjectNode node = JSON.createObjectNode();
      for (int i = 0; i < columns.size(); i++) {
        Object v = row[i];
        if (v == null) {
          node.putNull(columns.get(i));
        } else if (v instanceof Long l) {
          node.put(columns.get(i), l);
        } else if (v instanceof Integer n) {
          node.put(columns.get(i), n);
        } else if (v instanceof Double d) {
          node.put(columns.get(i), d);
        } else if (v instanceof BigDecimal d) {
          node.put(columns.get(i), d);
        } else if (v instanceof Boolean b) {
          node.put(columns.get(i), b);
        } else {
          node.put(columns.get(i), String.valueOf(v)); // strings, dates, timestamps (ISO-8601)
        }
      }
      out.println(node.toString());
    }
  }

  private static void printTable(PrintWriter out, List<String> columns, List<Object[]> rows) {
    int[] widths = new int[columns.size()];
    List<String[]> cells = new ArrayList<>();
    cells.add(columns.toArray(new String[0]));
    for (Object[] row : rows) {
      String[] line = new String[columns.size()];
      for (int i = 0; i < line.length; i++) {
        line[i] = row[i] == null ? "null" : String.valueOf(row[i]);
      }
      cells.add(line);
    }
    for (String[] line : cells) {
      for (int i = 0; i < line.length; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    for (String[] line : cells) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < line.length; i++) {
        b.append(i == 0 ? "" : "  ").append(String.format("%-" + widths[i] + "s", line[i]));
      }
      out.println(b.toString().stripTrailing());
    }
    out.printf("(%d change rows)%n", rows.size());
  }
}
