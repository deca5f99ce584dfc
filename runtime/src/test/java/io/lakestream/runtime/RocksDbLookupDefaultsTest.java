package io.lakestream.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.state.StateBackendSettings;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.contrib.streaming.state.RocksDBConfigurableOptions;
import org.apache.flink.contrib.streaming.state.RocksDBOptions;
import org.junit.jupiter.api.Test;

class RocksDbLookupDefaultsTest {

  @Test
  void rocksDbQueriesGetBloomFiltersWithPartitionedIndexFilters() {
    Configuration conf = new Configuration();
    FlinkSettings.rocksDbLookupDefaults(StateBackendSettings.defaults(), conf);
    assertThat(conf.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isTrue();
    assertThat(conf.get(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS)).isTrue();
  }

  @Test
  void whatTheUserSetIsKeptAndNeitherIsSetAlone() {
    Configuration bloomOff = new Configuration();
    bloomOff.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, false);
    FlinkSettings.rocksDbLookupDefaults(StateBackendSettings.defaults(), bloomOff);
    assertThat(bloomOff.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isFalse();
    assertThat(bloomOff.contains(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS)).isFalse();

    Configuration partitionedOff = new Configuration();
    partitionedOff.set(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS, false);
    FlinkSettings.rocksDbLookupDefaults(StateBackendSettings.defaults(), partitionedOff);
    assertThat(partitionedOff.contains(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isFalse();
  }

  @Test
  void heapStateIsLeftAlone() {
    Configuration conf = new Configuration();
    FlinkSettings.rocksDbLookupDefaults(
        StateBackendSettings.defaults().withBackend(StateBackendSettings.Backend.HASHMAP), conf);
    assertThat(conf.toMap()).isEmpty();
  }
}
