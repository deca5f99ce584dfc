/**
 * The stateful streaming operators (watermark, deduplication, windows, joins, parsing) in their
 * subpackages, and {@link io.lakestream.operators.OperatorErrorClass}, the error classes their
 * builders and operators fail with.
 */
package io.lakestream.operators;
