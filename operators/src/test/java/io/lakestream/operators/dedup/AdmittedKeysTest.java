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
    assertThat(filter.layers()).isOne();
    assertThat(filter.full()).isFalse();
    assertThat(falsePositives(filter, 10_000)).isLessThan(300); // ~1% expected at capacity
    for (int i = 0; i < 10_000; i++) {
      assertThat(filter.mightContain(Values.of("e-" + i))).isTrue();
    }
  }

  @Test
  void pastItsCapacityItGrowsByLayersTwiceTheSizeAndForgetsNoKey() {
    AdmittedKeys filter = new AdmittedKeys(1024);
    int keys = 1024 + 2048 + 4096 + 8192; // four layers, each filled to its size
    for (int i = 0; i < keys; i++) {
      filter.add(Values.of((long) i));
    }
    assertThat(filter.layers()).isEqualTo(4);
    assertThat(filter.capacity()).isEqualTo(keys);
    assertThat(filter.full()).isFalse();
    for (int i = 0; i < keys; i++) {
      assertThat(filter.mightContain(Values.of((long) i))).isTrue();
    }
    // each layer at its capacity adds ~1% of false positives: four of them stay well under 6%
    assertThat(falsePositives(filter, 100_000)).isLessThan(6_000);
    filter.add(Values.of(-1L));
    assertThat(filter.layers()).isEqualTo(5);
    AdmittedKeys next = filter.emptyNext(); // what a sweep refills: one layer for them all
    assertThat(next.layers()).isOne();
    assertThat(next.capacity()).isEqualTo(filter.capacity());
    assertThat(next.mightContain(Values.of(1L))).isFalse();
  }

  @Test
  void itStopsGrowingAtItsLargestSizeAndThenSaysItIsFull() {
    AdmittedKeys largest = new AdmittedKeys(Integer.MAX_VALUE);
    assertThat(largest.capacity()).isEqualTo(AdmittedKeys.MAX_CAPACITY);
    for (int i = 0; i <= AdmittedKeys.MAX_CAPACITY; i++) {
      largest.add(i);
    }
    assertThat(largest.layers()).isOne();
    assertThat(largest.full()).isTrue();
    AdmittedKeys grown = new AdmittedKeys(AdmittedKeys.INITIAL_CAPACITY);
    for (int i = 0; i < AdmittedKeys.MAX_CAPACITY; i++) {
      grown.add(i);
    }
    assertThat(grown.layers()).isEqualTo(5); // 1M + 2M + 4M + 8M, then the 1M left
    assertThat(grown.capacity()).isEqualTo(AdmittedKeys.MAX_CAPACITY);
    assertThat(grown.full()).isFalse();
    grown.add(-1);
    assertThat(grown.layers()).isEqualTo(5);
    assertThat(grown.full()).isTrue();
    assertThat(grown.mightContain(0)).isTrue();
    // a sweep's refill of 3M grows to the largest size too: 3M + 6M + the 7M left
    AdmittedKeys refilled = new AdmittedKeys(3 * AdmittedKeys.INITIAL_CAPACITY);
    for (int i = 0; i < AdmittedKeys.MAX_CAPACITY; i++) {
      refilled.add(i);
    }
    assertThat(refilled.layers()).isEqualTo(3);
    assertThat(refilled.capacity()).isEqualTo(AdmittedKeys.MAX_CAPACITY);
  }

  private static int falsePositives(AdmittedKeys filter, int probes) {
    int count = 0;
    for (int i = 0; i < probes; i++) {
      if (filter.mightContain(Values.of("other-" + i))) {
        count++;
      }
    }
    return count;
  }
}
