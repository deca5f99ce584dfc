/**
 * Filters on a Delta table's columns and the file skipping they drive: {@link
 * io.lakestream.connectors.delta.filter.DeltaFilter} is the filter a source is built with
 * (comparisons, {@code IN}, {@code IS [NOT] NULL}, {@code AND}, {@code OR} of top-level columns and
 * values); {@link io.lakestream.connectors.delta.filter.DeltaFileSkipping} decides for each data
 * file, from its partition values and the statistics of its {@code add} action, whether it may hold
 * a matching row, for the files of a snapshot and the files later versions add alike. Flink-free.
 */
package io.lakestream.connectors.delta.filter;
