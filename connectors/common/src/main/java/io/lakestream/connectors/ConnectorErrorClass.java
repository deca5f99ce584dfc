package io.lakestream.connectors;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.ErrorClass;

/**
 * The error classes of the connector framework shared by every connector (sources' positions and
 * replays, the epoch-commit sinks, the rate source and the JSON-lines files). Invalid options have
 * their own classes, {@link io.lakestream.connectors.options.OptionErrorClass}, and so have the
 * schema model's types and columns, {@link io.lakestream.connectors.schema.SchemaErrorClass}.
 */
@PublicEvolving
public enum ConnectorErrorClass implements ErrorClass {
  /** A source or sink was built without a name, which is its operator uid. */
  CONNECTOR_NAME_MISSING,
  /** A replayed epoch could not end where it ended when it was first committed. */
  SOURCE_REPLAY_MISALIGNED
}
