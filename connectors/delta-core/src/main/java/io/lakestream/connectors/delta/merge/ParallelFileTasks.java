package io.lakestream.connectors.delta.merge;

import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTableException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs the per-file work of one MERGE batch (reading and applying the clauses to a candidate file,
 * writing a rewritten file or change data) on up to {@code parallelism} threads.
 *
 * <p>Guarantees: results come back in the order of the tasks, whatever the threads' timing, so the
 * commit's actions are the same as a sequential run's. With a parallelism of 1, or a single task,
 * the tasks run in the calling thread, one after the other.
 *
 * <p>Failure: the first task to fail fails the call with its exception (a {@link RuntimeException}
 * or {@link Error} as thrown; anything else wrapped in a {@link DeltaTableException}); tasks not
 * yet started are cancelled and the call returns only after the running ones have ended, so no task
 * of the batch writes anything after the failure is reported. Files written by tasks that completed
 * are not referenced by any commit (the caller commits nothing) and VACUUM removes them, as after
 * any failed MERGE. An interrupt of the calling thread interrupts the workers and fails the call at
 * once with a {@link DeltaTableException} (nothing is committed either). Threads are daemon threads
 * made per call, ended when it returns.
 */
final class ParallelFileTasks {
  private static final AtomicInteger POOLS = new AtomicInteger();

  private final int parallelism;

  /**
   * @param parallelism threads at most (>= 1)
   */
  ParallelFileTasks(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, was " + parallelism);
    }
    this.parallelism = parallelism;
  }

  int parallelism() {
    return parallelism;
  }

  /**
   * {@code task} applied to every item, on up to {@link #parallelism()} threads.
   *
   * @param what the work, for thread names and error messages (e.g. "rewrite")
   * @return the results in the order of {@code items}
   */
  <T, R> List<R> map(String what, List<T> items, Function<? super T, ? extends R> task) {
    int threads = Math.min(parallelism, items.size());
    List<R> results = new ArrayList<>(items.size());
    if (threads <= 1) {
      for (T item : items) {
        results.add(task.apply(item));
      }
      return results;
    }
    ExecutorService pool = pool(what, threads);
    try {
      ExecutorCompletionService<R> done = new ExecutorCompletionService<>(pool);
      AtomicBoolean failing = new AtomicBoolean();
      List<Future<R>> futures = new ArrayList<>(items.size());
      for (T item : items) {
        futures.add(done.submit(() -> run(task, item, failing)));
      }
      for (int i = 0; i < items.size(); i++) {
        Future<R> finished = done.take();
        try {
          finished.get();
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof Skipped)) {
            throw failed(what, futures, pool, e.getCause());
          }
        }
      }
      for (Future<R> future : futures) {
        results.add(future.get()); // all done: no wait
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pool.shutdownNow();
      throw new DeltaTableException(
          DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
          "Interrupted while the MERGE's " + what + " tasks ran; nothing was committed",
          e);
    } catch (ExecutionException | CancellationException e) {
      throw new IllegalStateException("a finished " + what + " task has no result", e);
    } finally {
      pool.shutdown();
    }
  }

  /** Thrown by a task that did not start because another one had failed. */
  private static final class Skipped extends RuntimeException {
    Skipped() {
      super("skipped after another task failed", null, false, false);
    }
  }

  /** Runs the task unless another failed already; a failure marks the batch failing. */
  private static <T, R> R run(
      Function<? super T, ? extends R> task, T item, AtomicBoolean failing) {
    if (failing.get()) {
      throw new Skipped();
    }
    try {
      return task.apply(item);
    } catch (RuntimeException | Error e) {
      failing.set(true);
      throw e;
    }
  }

  /** Cancels the tasks not started, waits for the running ones, and returns what to throw. */
  private static RuntimeException failed(
      String what, List<? extends Future<?>> futures, ExecutorService pool, Throwable cause) {
    futures.forEach(f -> f.cancel(false));
    pool.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
        pool.shutdownNow();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new DeltaTableException(
        DeltaErrorClass.DELTA_TABLE_WRITE_FAILED,
        "A " + what + " task of the MERGE failed; nothing was committed: " + cause,
        cause);
  }

  private static ExecutorService pool(String what, int threads) {
    int id = POOLS.incrementAndGet();
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(
        threads,
        threads,
        0,
        TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "merge-" + what + "-" + id + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }
}
