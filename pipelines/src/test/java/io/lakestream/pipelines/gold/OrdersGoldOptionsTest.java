package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.pipelines.PipelineOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipeline E4 refuses, before any job starts, what cannot give a correct gold table: a missing
 * silver table, one without the change data feed, one without the columns it aggregates, and bad
 * source options; each message says what to change.
 */
class OrdersGoldOptionsTest {
  @TempDir Path dir;

  private PipelineOptions options(Map<String, String> source) {
    return new PipelineOptions(dir.resolve("lake").toUri(), 0, 0, 0, source);
  }

  private void silver(DeltaTableSchema schema) throws Exception {
    DeltaTable.forPath(dir.resolve("lake/orders_silver").toUri().toString()).ensureExists(schema);
  }

  @Test
  void aMissingSilverTableNamesThePathAndTheOption() {
    assertThatThrownBy(() -> new OrdersGoldDaily().dataflow(options(Map.of())))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("orders_silver")
        .hasMessageContaining("no Delta table there")
        .hasMessageContaining("-o path=")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("PIPELINE_INVALID_INPUT");
  }

  @Test
  void aSilverTableWithoutTheChangeFeedNamesTheProperty() throws Exception {
    silver(
        DeltaTableSchema.builder()
            .column("order_id", ColumnType.STRING, false)
            .column("order_ts", ColumnType.TIMESTAMP)
            .column("amount", ColumnType.DOUBLE)
            .build());
    assertThatThrownBy(() -> new OrdersGoldDaily().dataflow(options(Map.of())))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("delta.enableChangeDataFeed")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("PIPELINE_INVALID_INPUT");
  }

  @Test
  void aSilverTableWithoutAnAggregatedColumnIsRefused() throws Exception {
    silver(
        DeltaTableSchema.builder()
            .column("order_id", ColumnType.STRING, false)
            .column("order_ts", ColumnType.TIMESTAMP)
            .property("delta.enableChangeDataFeed", "true")
            .build());
    assertThatThrownBy(() -> new OrdersGoldDaily().dataflow(options(Map.of())))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("no column 'amount'")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("PIPELINE_INVALID_INPUT");
  }

  @Test
  void badAndUnknownSourceOptionsAreRefusedNamingThem() throws Exception {
    silver(OrdersGoldDaily.SILVER_SCHEMA);
    assertThatThrownBy(
            () -> new OrdersGoldDaily().dataflow(options(Map.of("startingVersion", "first"))))
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e -> assertThat(e.errorClass()).isEqualTo("INVALID_OPTION_VALUE"))
        .hasMessageContaining("startingVersion");
    assertThatThrownBy(
            () -> new OrdersGoldDaily().dataflow(options(Map.of("maxFilesPerTrigr", "1"))))
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("Unknown Delta CDF source option 'maxFilesPerTrigr'")
        .hasMessageContaining("maxFilesPerTrigger");
  }

  @Test
  void theGoldAmountIsTenDigitsWiderThanSilversOrDoubleForAFloatingAmount() throws Exception {
    silver(OrdersGoldDaily.SILVER_SCHEMA);
    assertThat(OrdersGoldDaily.silverAmountType(dir.resolve("lake/orders_silver").toString()))
        .isEqualTo(ColumnType.decimal(22, 2));
    DeltaTable.forPath(dir.resolve("d").toUri().toString())
        .ensureExists(
            DeltaTableSchema.builder()
                .column("order_id", ColumnType.STRING, false)
                .column("order_ts", ColumnType.TIMESTAMP)
                .column("amount", ColumnType.DOUBLE)
                .build());
    assertThat(OrdersGoldDaily.silverAmountType(dir.resolve("d").toString()))
        .isEqualTo(ColumnType.DOUBLE);
  }
}
