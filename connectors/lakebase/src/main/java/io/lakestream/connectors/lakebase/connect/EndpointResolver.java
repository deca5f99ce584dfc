package io.lakestream.connectors.lakebase.connect;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;
import java.io.Serializable;

/**
 * Finds the host of a Lakebase endpoint named by id ({@link LakebaseEndpointId}). The sink asks
 * once, when it first connects (in {@code build()}, on the client), and keeps the answer; the sink
 * serializes the resolver with it, so it must be serializable and hold no secret in its fields.
 *
 * <p>Failures: an {@link IOException} for a transient failure (the API unreachable, a 5xx); a
 * {@link io.lakestream.connectors.lakebase.LakebaseSinkException} of class {@code
 * JDBC_STREAMING_SINK_INVALID_OPTIONS} when the endpoint does not exist or has no host, naming
 * option {@code endpoint}.
 */
@PublicEvolving
@FunctionalInterface
public interface EndpointResolver extends Serializable {

  /** The host name ({@code host} or {@code host:port}) to connect to for {@code id}. */
  String resolve(LakebaseEndpointId id) throws IOException;
}
