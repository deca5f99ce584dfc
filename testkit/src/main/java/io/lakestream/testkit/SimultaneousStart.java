package io.lakestream.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Runs tasks in threads of their own that all start at the same instant (behind one barrier), for
 * tests of what happens when many writers race: e.g. twenty runs taking one lease.
 */
public final class SimultaneousStart {
  private SimultaneousStart() {}

  /**
   * Runs {@code count} tasks, {@code task.apply(i)} for i in 0..count-1, released at one instant.
   *
   * @return each task's result, in task order
   * @throws Exception the first task's exception, or a timeout after {@code timeoutSeconds}
   */
  public static <T> List<T> run(int count, IntFunction<Callable<T>> task, long timeoutSeconds)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(count);
    ExecutorService pool = Executors.newFixedThreadPool(count);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        Callable<T> body = task.apply(i);
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return body.call();
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(timeoutSeconds, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
