package io.lakestream.sql.streamingtable;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.sql.SqlErrorClass;
import java.time.Duration;
import java.util.Objects;

/**
 * When a streaming table refreshes, from its statement's clause: {@code SCHEDULE [REFRESH] EVERY n
 * HOURS} ({@link Kind#EVERY}) or {@code TRIGGER ON UPDATE [AT MOST EVERY INTERVAL n MINUTES]}
 * ({@link Kind#ON_UPDATE}, 1 minute when no interval is given). Either way refreshes start at least
 * {@link #interval} apart, a refresh that takes longer is followed by the next at once, and a
 * refresh that finds no new input commits nothing. Databricks' documented 1-minute minimum holds
 * for both: a shorter interval fails with {@link SqlErrorClass#SQL_INVALID_STREAMING_TABLE}.
 *
 * @param kind the clause it comes from
 * @param interval the least time between the starts of two refreshes
 */
@PublicEvolving
public record RefreshSchedule(Kind kind, Duration interval) {
  /** The shortest interval a schedule may have. */
  public static final Duration MINIMUM_INTERVAL = Duration.ofMinutes(1);

  /** The clause a schedule comes from. */
  @PublicEvolving
  public enum Kind {
    /** {@code SCHEDULE [REFRESH] EVERY n unit}: refresh on a fixed cadence. */
    EVERY,
    /**
     * {@code TRIGGER ON UPDATE [AT MOST EVERY INTERVAL n unit]}: refresh when the input changes, at
     * most once per interval; lakestream refreshes once per interval, and a refresh without new
     * input commits nothing.
     */
    ON_UPDATE
  }

  /**
   * @throws LakestreamException ({@link SqlErrorClass#SQL_INVALID_STREAMING_TABLE}) for an interval
   *     under {@link #MINIMUM_INTERVAL}
   */
  public RefreshSchedule {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(interval, "interval");
    if (interval.compareTo(MINIMUM_INTERVAL) < 0) {
      throw new LakestreamException(
          SqlErrorClass.SQL_INVALID_STREAMING_TABLE,
          "A streaming table refreshes at most once a minute (Databricks' documented minimum),"
              + " but "
              + clause(kind)
              + " gives "
              + interval.toSeconds()
              + " seconds: write an interval of 1 minute or more, e.g. "
              + clause(kind)
              + (kind == Kind.EVERY ? " 1 MINUTE" : " INTERVAL 1 MINUTE")
              + ".");
    }
  }

  private static String clause(Kind kind) {
    return kind == Kind.EVERY ? "SCHEDULE EVERY" : "TRIGGER ON UPDATE AT MOST EVERY";
  }

  @Override
  public String toString() {
    return clause(kind) + " " + interval;
  }
}
