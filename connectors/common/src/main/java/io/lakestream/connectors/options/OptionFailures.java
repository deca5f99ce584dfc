package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;

/**
 * Turns an {@link OptionProblem} into the exception a connector throws. The default, {@link
 * #STANDARD}, gives an {@link InvalidOptionException} with the problem's {@link OptionErrorClass};
 * a connector whose callers catch its own exception type (the Lakebase sink's {@code
 * LakebaseSinkException}, error class {@code JDBC_STREAMING_SINK_INVALID_OPTIONS}) supplies its
 * own.
 */
@PublicEvolving
@FunctionalInterface
public interface OptionFailures {
  /** {@link InvalidOptionException} with the problem's error class. */
  OptionFailures STANDARD = InvalidOptionException::new;

  /** The exception for {@code problem}; its message must be the problem's message. */
  LakestreamException create(OptionProblem problem);
}
