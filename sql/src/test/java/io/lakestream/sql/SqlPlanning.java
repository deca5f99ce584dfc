package io.lakestream.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** What the planning tests share: a query to plan statements in, and the check of a failure. */
public final class SqlPlanning {
  private SqlPlanning() {}

  /** A query context for planning only (no checkpoint location is touched). */
  public static QueryContext query() {
    return new QueryContext(
        "q", "planning", "run", "planning-q", "file:///unused", false, false, OutputMode.APPEND);
  }

  /** Asserts that {@code call} fails with a {@link LakestreamException} of that class and texts. */
  public static void assertFails(ThrowingCallable call, String errorClass, String... texts) {
    assertThatThrownBy(call)
        .isInstanceOf(LakestreamException.class)
        .satisfies(e -> assertThat(((LakestreamException) e).errorClass()).isEqualTo(errorClass))
        .hasMessageContainingAll(texts);
  }
}
