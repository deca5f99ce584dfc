package io.lakestream.connectors.delta.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * The schema model's nested values become the values of the source's Flink row type, which Flink's
 * own serializers then carry with every null inside them: arrays of the element class, maps, rows.
 */
class NestedRowValuesTest {
  private static final TypeInformation<Row> LINE =
      Types.ROW_NAMED(new String[] {"sku", "prices"}, Types.STRING, Types.OBJECT_ARRAY(Types.LONG));
  private static final RowTypeInfo ROW =
      new RowTypeInfo(
          new TypeInformation<?>[] {
            Types.LONG,
            Types.OBJECT_ARRAY(Types.STRING),
            Types.MAP(Types.STRING, Types.OBJECT_ARRAY(Types.INT)),
            Types.OBJECT_ARRAY(LINE)
          },
          new String[] {"id", "tags", "counts", "lines"});

  @Test
  void listsMapsAndStructsBecomeArraysMapsAndRowsThatFlinksSerializersCarry() throws Exception {
    Map<String, List<Integer>> counts = new LinkedHashMap<>();
    counts.put("a", Arrays.asList(1, null));
    counts.put("b", null);
    Object[] model = {
      7L,
      Arrays.asList("x", null),
      counts,
      Arrays.asList(new Object[] {"s1", Arrays.asList(5L, null)}, null, new Object[] {null, null})
    };

    Row row = Row.of(NestedRowValues.of(ROW).apply(model));

    assertThat((String[]) row.getField(1)).containsExactly("x", null);
    assertThat(List.copyOf(((Map<?, ?>) row.getField(2)).keySet())).isEqualTo(List.of("a", "b"));
    assertThat((Integer[]) ((Map<?, ?>) row.getField(2)).get("a")).containsExactly(1, null);
    Row[] lines = (Row[]) row.getField(3);
    assertThat(lines[0]).isEqualTo(Row.of("s1", new Long[] {5L, null}));
    assertThat(lines[1]).isNull();
    assertThat(lines[2]).isEqualTo(Row.of(null, null));

    TypeSerializer<Row> serializer =
        ROW.createSerializer(new org.apache.flink.api.common.ExecutionConfig());
    DataOutputSerializer out = new DataOutputSerializer(256);
    serializer.serialize(row, out);
    Row copy = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(copy).isEqualTo(row);
  }

  @Test
  void aRowWithoutNestedColumnsIsLeftAsItIs() {
    Object[] model = {1L, "x"};
    assertThat(NestedRowValues.of(new RowTypeInfo(Types.LONG, Types.STRING)).apply(model))
        .isSameAs(model)
        .containsExactly(1L, "x");
  }
}
