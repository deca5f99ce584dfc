package io.lakestream.pipelines;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/** The error classes of the example pipelines and the {@code lakestream} command line. */
@PublicEvolving
public enum PipelineErrorClass implements ErrorClass {
  /** A pipeline name that is not one of the known pipelines. */
  PIPELINE_UNKNOWN,
  /** A pipeline option (-o key=value) that is unknown, missing or cannot be used. */
  PIPELINE_INVALID_OPTION,
  /** A table a pipeline reads is missing or lacks what the pipeline needs (run the one before). */
  PIPELINE_INVALID_INPUT,
  /** A command-line argument that cannot be used. */
  CLI_INVALID_ARGUMENT
}
