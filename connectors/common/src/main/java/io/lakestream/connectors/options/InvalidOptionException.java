package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;

/**
 * A connector option is unknown, missing, has a value that cannot be used, or conflicts with
 * another. The error class ({@link OptionErrorClass}) says which; the message names the option
 * (and, for an unknown key, the closest valid one) and never contains the value of a secret option.
 */
@PublicEvolving
public class InvalidOptionException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  private final String option;

  /** The exception for {@code problem}. */
  public InvalidOptionException(OptionProblem problem) {
    super(problem.errorClass(), problem.message());
    this.option = problem.option();
  }

  /** The option at fault, or null when several options conflict. */
  public String option() {
    return option;
  }
}
