/**
 * The connector framework's error classes ({@link io.lakestream.connectors.ConnectorErrorClass});
 * the framework itself is in the subpackages: epoch-commit sinks, source positions, the rate
 * source, JSON-lines files and the options catalog.
 */
package io.lakestream.connectors;
