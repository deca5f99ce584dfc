package io.lakestream.operators.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.operators.row.Values;
import org.junit.jupiter.api.Test;

class AdmittedKeysTest {

  @Test
  void everyAddedKeyIsPresentAndFewAbsentOnesLookPresent() {
    AdmittedKeys filter = new AdmittedKeys(10_000);
    for (int i = 0; i < 10_000; i++) {
      filter.add(Values.of("e-" + i));
    }
    assertThat(filter.full()).isFalse();
    int falsePositives = 0;
    for (int i = 0; i < 10_000; i++) {
      assertThat(filter.mightContain(Values.of("e-" + i))).isTrue();
      if (filter.mightContain(Values.of("other-" + i))) {
        falsePositives++;
      }
    }
    assertThat(falsePositives).isLessThan(300); // ~1% expected at capacity
  }

  @Test
  void pastItsCapacityItIsFullAndTheNextOneIsTwiceTheSize() {
    AdmittedKeys filter = new AdmittedKeys(1024);
    for (int i = 0; i <= 1024; i++) {
      filter.add(Values.of((long) i));
    }
    assertThat(filter.full()).isTrue();
    assertThat(filter.wantsToGrow()).isTrue();
    AdmittedKeys next = filter.emptyNext();
    assertThat(next.capacity()).isEqualTo(2048);
    assertThat(next.full()).isFalse();
    assertThat(next.mightContain(Values.of(1L))).isFalse();
    AdmittedKeys largest = new AdmittedKeys(Integer.MAX_VALUE);
    assertThat(largest.capacity()).isEqualTo(AdmittedKeys.MAX_CAPACITY);
    for (int i = 0; i <= AdmittedKeys.MAX_CAPACITY; i++) {
      largest.add(i);
    }
    assertThat(largest.full()).isTrue();
    assertThat(largest.wantsToGrow()).isFalse(); // no walk of a huge state at every epoch end
  }
}
