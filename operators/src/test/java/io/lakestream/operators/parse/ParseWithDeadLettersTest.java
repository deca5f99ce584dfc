package io.lakestream.operators.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class ParseWithDeadLettersTest {

  /** Accepts positive integers; anything else is bad input. */
  private static final RecordParser<Integer> POSITIVE_INT =
      raw -> {
        try {
          int value = Integer.parseInt(raw);
          if (value <= 0) {
            throw new RecordParseException("value: must be > 0, got " + value);
          }
          return value;
        } catch (NumberFormatException e) {
          throw new RecordParseException("not a number: " + raw);
        }
      };

  @Test
  void goodRecordsGoOutBadOnesBecomeDeadLettersWithTheReason() throws Exception {
    try (OneInputStreamOperatorTestHarness<String, Integer> harness =
        ProcessFunctionTestHarnesses.forProcessFunction(
            new ParseWithDeadLetters<>(POSITIVE_INT, Types.INT, "numbers"))) {
      harness.processElement("1", 10);
      harness.processElement("x", 11);
      harness.processElement("-5", 12);
      harness.processElement("7", 13);

      assertThat(harness.extractOutputValues()).containsExactly(1, 7);
      List<DeadLetter> dead =
          harness.getSideOutput(ParseWithDeadLetters.DEAD_LETTERS).stream()
              .map(StreamRecord::getValue)
              .collect(Collectors.toList());
      assertThat(dead).extracting(d -> d.raw).containsExactly("x", "-5");
      assertThat(dead)
          .extracting(d -> d.error)
          .containsExactly("not a number: x", "value: must be > 0, got -5");
      assertThat(dead).allSatisfy(d -> assertThat(d.source).isEqualTo("numbers"));
    }
  }

  @Test
  void aParserBugFailsTheTaskInsteadOfBecomingADeadLetter() throws Exception {
    RecordParser<Integer> buggy =
        raw -> {
          throw new IllegalStateException("bug");
        };
    try (OneInputStreamOperatorTestHarness<String, Integer> harness =
        ProcessFunctionTestHarnesses.forProcessFunction(
            new ParseWithDeadLetters<>(buggy, Types.INT, "numbers"))) {
      assertThatThrownBy(() -> harness.processElement("1", 1))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("bug");
    }
  }
}
