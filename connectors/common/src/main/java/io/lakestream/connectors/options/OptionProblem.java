package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Objects;

/**
 * What is wrong with a connector's options, before it becomes an exception: the error class, the
 * option at fault (its canonical key, or the key as given when it is unknown; null when several
 * options conflict) and the full message, which names the option and says what to do.
 *
 * @param errorClass the kind of problem
 * @param option the option at fault, or null
 * @param message the message, starting with the connector's label (e.g. {@code Kafka source option
 *     ...})
 */
@PublicEvolving
public record OptionProblem(OptionErrorClass errorClass, String option, String message) {
  public OptionProblem {
    Objects.requireNonNull(errorClass, "errorClass");
    Objects.requireNonNull(message, "message");
  }
}
