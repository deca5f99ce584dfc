package io.lakestream.connectors.rate.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.rate.source.enumerator.SequenceEnumeratorState;
import io.lakestream.connectors.rate.source.split.SequenceSplit;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

class RateSourceBuilderTest {

  private static RateSourceBuilder<Long> builder() {
    return RateSourceBuilder.rate("rate-src", index -> index, Types.LONG);
  }

  @Test
  void defaultsPassTheSanityCheck() {
    assertThatCode(() -> builder().sanityCheck()).doesNotThrowAnyException();
    assertThatCode(() -> builder().rows(0).rowsPerSecond(0).maxRowsPerTrigger(0).sanityCheck())
        .doesNotThrowAnyException();
  }

  @Test
  void negativeRowsNamesTheOption() {
    assertThatThrownBy(() -> builder().rows(-1).sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessage("[INVALID_OPTION_VALUE] rate option rows must be >= 0, was -1")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void zeroPartitionsNamesTheOption() {
    assertThatThrownBy(() -> builder().numPartitions(0).sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessage("[INVALID_OPTION_VALUE] rate option numPartitions must be >= 1, was 0")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void negativeRowsPerSecondNamesTheOption() {
    assertThatThrownBy(() -> builder().rowsPerSecond(-5).sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("rate option rowsPerSecond must be >= 0")
        .hasMessageContaining("was -5")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void negativeMaxRowsPerTriggerNamesTheOption() {
    assertThatThrownBy(() -> builder().maxRowsPerTrigger(-2).sanityCheck())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("rate option maxRowsPerTrigger must be >= 0")
        .hasMessageContaining("was -2")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void buildRunsTheSanityCheck() {
    assertThatThrownBy(() -> builder().numPartitions(-3).build())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("numPartitions")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_OPTION_VALUE");
  }

  @Test
  void missingNameIsRefused() {
    assertThatThrownBy(() -> RateSourceBuilder.rate(null, index -> index, Types.LONG))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("name");
  }

  @Test
  void builtSourceDescribesItself() {
    SequenceSource<Long> source = builder().numPartitions(3).build();

    assertThat(source.sourceType()).isEqualTo("rate");
    assertThat(source.sourceTarget()).isEqualTo("rate-src (3 partitions)");
    assertThat(source.supportsAvailableNow()).isTrue();
    assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    assertThat(source.getProducedType()).isEqualTo(Types.LONG);
  }

  @Test
  void restoreWithOtherPartitionCountIsRefused() throws Exception {
    SequenceSource<Long> source = builder().numPartitions(3).build();
    TestingSplitEnumeratorContext<SequenceSplit> context = new TestingSplitEnumeratorContext<>(1);
    SequenceEnumeratorState checkpoint =
        new SequenceEnumeratorState(2, List.of(new SequenceSplit(0, 5)));

    assertThatThrownBy(() -> source.restoreEnumerator(context, checkpoint))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("created with 2 partitions and cannot change to 3")
        .hasMessageContaining("set numPartitions back to 2")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INCOMPATIBLE_RESTART");
  }
}
