/**
 * Flink type information for lakestream's own records: each type names its hand-written serializer,
 * so Flink never falls back to the POJO serializer's reflection or to Kryo for them.
 */
package io.lakestream.operators.types;
