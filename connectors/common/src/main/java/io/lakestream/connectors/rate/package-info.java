/**
 * Generated input for demos and tests: {@link io.lakestream.connectors.rate.OrderEventGenerator}
 * writes order events as JSON, deterministic in the record index (so a replay produces identical
 * records), with late, duplicated and malformed records mixed in. The source that produces rows is
 * in {@link io.lakestream.connectors.rate.source}.
 */
package io.lakestream.connectors.rate;
