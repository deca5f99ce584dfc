package io.lakestream.connectors.delta.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelFileTasksTest {

  @Test
  void resultsComeInTaskOrderWhateverFinishesFirst() {
    List<Integer> items = IntStream.range(0, 8).boxed().toList();
    java.util.Set<String> threads = ConcurrentHashMap.newKeySet();
    List<Integer> out =
        new ParallelFileTasks(4)
            .map(
                "test",
                items,
                i -> {
                  threads.add(Thread.currentThread().getName());
                  sleep(5L * (8 - i)); // the first tasks finish last
                  return i * 10;
                });
    assertThat(out).containsExactly(0, 10, 20, 30, 40, 50, 60, 70);
    assertThat(threads.size()).isBetween(2, 4);
  }

  @Test
  void aParallelismOfOneRunsInTheCallingThread() {
    String caller = Thread.currentThread().getName();
    List<String> out =
        new ParallelFileTasks(1).map("test", List.of(1, 2), i -> Thread.currentThread().getName());
    assertThat(out).containsExactly(caller, caller);
  }

  @Test
  void aFailureIsThrownAfterTheRunningTasksEndedAndTheRestNeverStart() throws Exception {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger started = new AtomicInteger();
    CountDownLatch slowStarted = new CountDownLatch(1);
    List<Integer> items = IntStream.range(0, 20).boxed().toList();
    assertThatThrownBy(
            () ->
                new ParallelFileTasks(2)
                    .map(
                        "test",
                        items,
                        i -> {
                          started.incrementAndGet();
                          running.incrementAndGet();
                          try {
                            if (i == 0) {
                              slowStarted.countDown();
                              sleep(300); // still running when task 1 fails
                              return i;
                            }
                            await(slowStarted);
                            throw new IllegalStateException("task " + i + " failed");
                          } finally {
                            running.decrementAndGet();
                          }
                        }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("task 1 failed");
    assertThat(running.get()).as("tasks still running after the failure").isZero();
    assertThat(started.get())
        .as("tasks started: 0, 1 and a few skipped ones at most")
        .isLessThan(5);
  }

  @Test
  void aParallelismBelowOneIsRefused() {
    assertThatThrownBy(() -> new ParallelFileTasks(0)).isInstanceOf(IllegalArgumentException.class);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
