package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.util.SerializedThrowable;

/**
 * A query failed while running; the cause is Flink's job failure. Checked, like Spark's {@code
 * StreamingQueryException}, and like it carries the error class of what failed the query: {@link
 * #errorClass()} is the class of the first {@link LakestreamException} among the causes (for
 * example {@code KAFKA_DATA_LOSS} or {@code DELTA_CONCURRENT_APPEND}), or {@code STREAM_FAILED}
 * when no cause has one. A cause that reached the client only as Flink's {@link
 * SerializedThrowable} (its class was not loadable there) still gives its class: the {@code
 * [ERROR_CLASS]} prefix of its message.
 */
@PublicEvolving
public class StreamingQueryException extends Exception {
  private static final long serialVersionUID = 1L;
  private static final Pattern PREFIX = Pattern.compile("^\\[([A-Z][A-Z0-9_.]*)\\] ");

  public StreamingQueryException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The error class of the failure: that of the first {@link LakestreamException} among the causes,
   * else {@link QueryErrorClass#STREAM_FAILED}.
   */
  public String errorClass() {
    String cause = LakestreamException.errorClassOf(getCause());
    if (cause != null) {
      return cause;
    }
    for (Throwable t = getCause(); t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SerializedThrowable && t.getMessage() != null) {
        Matcher m = PREFIX.matcher(t.getMessage());
        if (m.find()) {
          return m.group(1);
        }
      }
    }
    return QueryErrorClass.STREAM_FAILED.name();
  }
}
