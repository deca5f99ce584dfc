package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.testkit.postgres.PostgresExtension;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every column kind the binary COPY encoder takes, read back from a real PostgreSQL equal to what
 * was sent: numerics around base-10000 digit boundaries, negative, zero, scale 0 and negative
 * scales; text with multi-byte characters; nulls of every kind; doubles' special values.
 */
class CopyBinaryRowsITCase {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  private static final List<String> DECIMALS =
      List.of(
          "0",
          "0.00",
          "1",
          "-1",
          "12.5",
          "9999.9999",
          "10000",
          "-10000.0001",
          "0.0001",
          "0.00001",
          "123456789012345678901234567890.123456789",
          "-0.5",
          "1E+5",
          "100000000");

  @Test
  void everyKindRoundTripsThroughCopy() throws Exception {
    List<ColumnType> types =
        List.of(
            ColumnType.LONG,
            ColumnType.INT,
            ColumnType.DOUBLE,
            ColumnType.STRING,
            ColumnType.BOOLEAN,
            ColumnType.decimal(38, 10));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < DECIMALS.size(); i++) {
      rows.add(
          new Object[] {
            Long.MIN_VALUE + i,
            i % 2 == 0 ? Integer.MAX_VALUE - i : -i,
            i == 0 ? Double.NaN : i == 1 ? Double.NEGATIVE_INFINITY : i * -1.25e-300,
            i % 3 == 0 ? "tab\there, new\nline, \\ and ü€😀" : "v" + i,
            i % 2 == 0,
            new BigDecimal(DECIMALS.get(i))
          });
    }
    rows.add(new Object[] {null, null, null, null, null, null});
    CopyBinaryRows encoder = new CopyBinaryRows();
    try (Connection c = POSTGRES.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE copied (l int8, i int4, d float8, t text, b bool, n numeric)");
      for (int round = 0; round < 2; round++) { // the encoder is reused
        s.execute("TRUNCATE copied");
        encoder.reset();
        for (Object[] row : rows) {
          encoder.startRow(types.size());
          for (int k = 0; k < types.size(); k++) {
            encoder.putValue(types.get(k), row[k]);
          }
        }
        assertThat(encoder.copyIn(c, "COPY copied FROM STDIN (FORMAT binary)"))
            .isEqualTo(rows.size());
        List<Object[]> back = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SELECT * FROM copied")) {
          while (r.next()) {
            back.add(
                new Object[] {
                  r.getObject(1),
                  r.getObject(2),
                  r.getObject(3),
                  r.getObject(4),
                  r.getObject(5),
                  r.getBigDecimal(6)
                });
          }
        }
        assertThat(back).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
          Object[] sent = rows.get(i);
          Object[] got = back.get(i);
          assertThat(got[0]).isEqualTo(sent[0]);
          assertThat(got[1]).isEqualTo(sent[1]);
          assertThat(got[2]).isEqualTo(sent[2]);
          assertThat(got[3]).isEqualTo(sent[3]);
          assertThat(got[4]).isEqualTo(sent[4]);
          if (sent[5] == null) {
            assertThat(got[5]).isNull();
          } else {
            assertThat((BigDecimal) got[5])
                .as("numeric %s", sent[5])
                .isEqualByComparingTo((BigDecimal) sent[5]);
          }
        }
      }
    }
  }

  @Test
  void aValueOfTheWrongClassOrOutOfRangeFailsBeforeSending() {
    CopyBinaryRows encoder = new CopyBinaryRows();
    encoder.reset();
    assertThatThrownBy(() -> encoder.putValue(ColumnType.LONG, "7"))
        .isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> encoder.putValue(ColumnType.INT, 1L << 40))
        .isInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> encoder.putValue(ColumnType.LONG, 1.5))
        .isInstanceOf(ClassCastException.class);
  }
}
