/**
 * What every query's state rests on: {@link io.lakestream.state.StateBackendSettings} (RocksDB with
 * incremental checkpoints, retained checkpoints, no Kryo fallback and a fixed max parallelism by
 * default), {@link io.lakestream.state.Locations} (the one absolute URI text a location is stored
 * and compared as) and {@link io.lakestream.state.StateErrorClass}, the error classes of this
 * module. The checkpoint location is in {@link io.lakestream.state.checkpoint}, the query's
 * identity and the restart matrix in {@link io.lakestream.state.query}.
 */
package io.lakestream.state;
