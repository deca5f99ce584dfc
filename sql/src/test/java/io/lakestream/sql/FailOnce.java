package io.lakestream.sql;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.table.functions.ScalarFunction;

/**
 * A SQL function that passes its argument through; once {@link #arm armed}, it fails the task on
 * the 50th row it sees, one time in the test JVM ({@code CREATE TEMPORARY FUNCTION fail_once AS
 * 'io.lakestream.sql.FailOnce'}).
 */
public final class FailOnce extends ScalarFunction {
  private static final AtomicBoolean ARMED = new AtomicBoolean();
  private static final AtomicBoolean FAILED = new AtomicBoolean();

  private int seen;

  /** Arms the failure (or disarms it) and forgets an earlier one. */
  public static void arm(boolean armed) {
    ARMED.set(armed);
    FAILED.set(false);
  }

  /** Whether the armed failure happened. */
  public static boolean failed() {
    return FAILED.get();
  }

  public Long eval(Long id) {
    if (ARMED.get() && ++seen == 50 && FAILED.compareAndSet(false, true)) {
      throw new IllegalStateException("injected task failure mid-epoch at id " + id);
    }
    return id;
  }
}
