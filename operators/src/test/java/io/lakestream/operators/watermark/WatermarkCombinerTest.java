package io.lakestream.operators.watermark;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.api.error.LakestreamException;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class WatermarkCombinerTest {

  private static TwoInputStreamOperatorTestHarness<String, String, String> harness(
      MultipleWatermarkPolicy policy) throws Exception {
    TwoInputStreamOperatorTestHarness<String, String, String> h =
        new TwoInputStreamOperatorTestHarness<>(new WatermarkCombiner<>(policy));
    h.open();
    return h;
  }

  private static List<Long> watermarks(
      TwoInputStreamOperatorTestHarness<String, String, String> h) {
    return h.getOutput().stream()
        .filter(o -> o instanceof Watermark)
        .map(o -> ((Watermark) o).getTimestamp())
        .collect(Collectors.toList());
  }

  @Test
  void minFollowsTheSlowerInputAndSkipsAnIdleOne() throws Exception {
    try (TwoInputStreamOperatorTestHarness<String, String, String> h =
        harness(MultipleWatermarkPolicy.MIN)) {
      h.processElement1(new StreamRecord<>("a", 1));
      h.processElement2(new StreamRecord<>("b", 2));
      h.processWatermark1(new Watermark(10_000));
      h.processWatermark2(new Watermark(5_000));
      assertThat(watermarks(h)).containsExactly(5_000L);
      h.processWatermark2(new Watermark(7_000));
      assertThat(watermarks(h)).containsExactly(5_000L, 7_000L);
      // the slow input goes idle: the fast one alone sets the watermark
      h.processWatermarkStatus2(WatermarkStatus.IDLE);
      assertThat(watermarks(h)).containsExactly(5_000L, 7_000L, 10_000L);
      assertThat(h.getOutput().stream().filter(o -> o instanceof StreamRecord).count())
          .isEqualTo(2);
    }
  }

  @Test
  void maxFollowsTheFasterInputButEndOfInputWaitsForBoth() throws Exception {
    try (TwoInputStreamOperatorTestHarness<String, String, String> h =
        harness(MultipleWatermarkPolicy.MAX)) {
      h.processWatermark1(new Watermark(10_000));
      h.processWatermark2(new Watermark(5_000));
      assertThat(watermarks(h)).containsExactly(10_000L);
      h.processWatermark2(new Watermark(12_000));
      assertThat(watermarks(h)).containsExactly(10_000L, 12_000L);
      h.processWatermark2(new Watermark(Long.MAX_VALUE)); // input 2 finished
      assertThat(watermarks(h)).containsExactly(10_000L, 12_000L);
      h.processWatermark1(new Watermark(15_000));
      h.processWatermark1(new Watermark(Long.MAX_VALUE));
      assertThat(watermarks(h)).containsExactly(10_000L, 12_000L, 15_000L, Long.MAX_VALUE);
    }
  }

  @Test
  void policiesParseLikeSparkConf() {
    assertThat(MultipleWatermarkPolicy.parse(" Max ")).isEqualTo(MultipleWatermarkPolicy.MAX);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> MultipleWatermarkPolicy.parse("avg"))
        .hasMessageContaining("valid: min, max")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("INVALID_WATERMARK");
  }
}
