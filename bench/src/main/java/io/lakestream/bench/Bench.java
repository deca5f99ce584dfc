package io.lakestream.bench;

/**
 * One benchmark: runs lakestream and a peer (the thing lakestream is compared with) on the same
 * workload in one JVM run and returns both measurements.
 *
 * <p>A bench must fail (throw) when a side did not produce what it claims, e.g. a sink that wrote
 * fewer rows than it was given: a benchmark that measures nothing must never report a number.
 * Implementations are registered in {@link BenchRegistry}.
 */
public interface Bench {
  /** The id on the command line and in BENCHMARKS.md, e.g. {@code delta-sink}. */
  String id();

  /** One line for {@code bin/bench --list}: what is measured against what. */
  String description();

  /** The row count used when {@code --rows} is not given. */
  long defaultRows();

  /**
   * Whether {@code bin/bench} runs an untimed warm-up round of this bench first (in the same JVM).
   * Benches that run each side in a fresh child JVM return false: the warm-up would warm nothing.
   */
  default boolean warmsUp() {
    return true;
  }

  /**
   * Starts what this bench needs first, from {@code services}, and loads the classes its sides run,
   * measuring nothing: {@code bin/bench --check} runs it for every bench on bin/bench's classpath,
   * so a bench that could not start fails in seconds.
   *
   * @throws Exception if a service does not start or a class is missing; a bench with a Spark side
   *     throws {@link IllegalStateException} saying how to build it when the {@code spark-bench}
   *     profile has not been built
   */
  void check(BenchServices services) throws Exception;

  /**
   * Runs both sides.
   *
   * @throws Exception if a side fails or its output does not check out
   */
  BenchResult run(BenchOptions options) throws Exception;
}
