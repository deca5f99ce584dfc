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
  CLI_INVALID_ARGUMENT,
  /**
   * The runtime properties of Managed Service for Apache Flink ({@code
   * application_properties.json}) are missing, not readable, or hold a property group lakestream
   * does not know, or a setting the service owns (the message lists the valid groups, or names the
   * service setting to use).
   */
  MSF_INVALID_PROPERTIES
}
