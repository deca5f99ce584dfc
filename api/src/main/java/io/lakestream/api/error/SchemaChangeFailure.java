package io.lakestream.api.error;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure that stops a stream because its input's schema changed (Auto Loader's {@code
 * UnknownFieldException}, say). When {@link #recorded()} the new schema is already recorded where
 * the query reads it when it is built, so the same query, rebuilt and restored from its checkpoint,
 * continues with it: the query runtime then restarts it by itself (unless turned off). A failure
 * that recorded nothing ({@code failOnNewColumns}) is final.
 *
 * <p>A recorded change ends its message with {@link #recordedNote}: where only the failure's text
 * travels (Flink's REST API gives a failed job's exceptions as text, to the JobManager-side restart
 * of a detached job), {@link #recordedIn} finds the change in it.
 */
@PublicEvolving
public interface SchemaChangeFailure {
  /** The columns that changed (added, or dropped/renamed where the source tells). */
  List<String> changedColumns();

  /** Whether the new schema is recorded, so that a rebuilt query reads it. */
  boolean recorded();

  /**
   * The note a recorded change's message ends with: {@code (schema change recorded: columns [a,
   * b])}.
   */
  static String recordedNote(List<String> columns) {
    return "(schema change recorded: columns " + columns + ")";
  }

  /**
   * The columns of the last {@link #recordedNote} in {@code failureText} (a stack trace, or a JSON
   * document holding one), if it has one.
   */
  static Optional<List<String>> recordedIn(String failureText) {
    Matcher m =
        Pattern.compile("\\(schema change recorded: columns \\[([^\\]\\n\\\\]*)]\\)")
            .matcher(failureText);
    String columns = null;
    while (m.find()) {
      columns = m.group(1);
    }
    if (columns == null) {
      return Optional.empty();
    }
    return Optional.of(columns.isEmpty() ? List.of() : Arrays.asList(columns.split(", ")));
  }
}
