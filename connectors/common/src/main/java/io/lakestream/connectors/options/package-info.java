/**
 * The one way connectors declare and check their string options.
 *
 * <p>A connector declares each option once as an {@link io.lakestream.connectors.options.Option}
 * (name, type, default, description, allowed values or range, whether it is required, aliases) and
 * collects them, with any pass-through prefix ({@link
 * io.lakestream.connectors.options.PassThrough}, e.g. {@code kafka.*}) and cross-field {@link
 * io.lakestream.connectors.options.OptionRule rules}, in one {@link
 * io.lakestream.connectors.options.OptionsCatalog}. {@link
 * io.lakestream.connectors.options.OptionsCatalog#validate} then matches keys ignoring case (as
 * Spark does), refuses unknown keys naming the closest valid one, parses every value to its type,
 * and runs the range checks and rules; the result is an {@link
 * io.lakestream.connectors.options.OptionValues}. Every failure is a {@link
 * io.lakestream.api.error.LakestreamException} with an {@link
 * io.lakestream.connectors.options.OptionErrorClass} (or the connector's own error class). {@link
 * io.lakestream.connectors.options.OptionsReference} renders a catalog as the Markdown reference
 * under {@code docs/options/}.
 *
 * <p>This package uses no Flink type, so the Flink-free delta-core can use it.
 */
package io.lakestream.connectors.options;
