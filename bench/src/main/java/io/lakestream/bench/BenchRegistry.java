package io.lakestream.bench;

import io.lakestream.bench.autoloader.AutoLoaderDiscoveryBench;
import io.lakestream.bench.dedup.DedupStateBench;
import io.lakestream.bench.delta.DeltaSinkBench;
import io.lakestream.bench.e2.E2BronzeBench;
import io.lakestream.bench.e2.E2BronzeSqlBench;
import io.lakestream.bench.lakebase.LakebaseLatencyBench;
import io.lakestream.bench.lakebase.LakebaseUpsertBench;
import io.lakestream.bench.latency.DeltaFreshnessBench;
import io.lakestream.bench.latency.RealTimeKafkaBench;
import io.lakestream.bench.merge.MergeBench;
import io.lakestream.bench.merge.MergeMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The benches {@code bin/bench} knows, by id. A new bench is one class implementing {@link Bench}
 * plus one line here.
 */
public final class BenchRegistry {
  private final Map<String, Bench> benches = new LinkedHashMap<>();

  private BenchRegistry(List<Bench> all) {
    for (Bench bench : all) {
      if (benches.put(bench.id(), bench) != null) {
        throw new IllegalStateException("Two benches share the id " + bench.id());
      }
    }
  }

  /** All implemented benches. */
  public static BenchRegistry standard() {
    return new BenchRegistry(
        List.of(
            new E2BronzeBench(),
            new E2BronzeSqlBench(),
            new DeltaSinkBench(),
            new MergeBench(MergeMode.COPY_ON_WRITE),
            new MergeBench(MergeMode.DELETION_VECTORS),
            new DedupStateBench(),
            new LakebaseUpsertBench(),
            new LakebaseLatencyBench(),
            new AutoLoaderDiscoveryBench(),
            new DeltaFreshnessBench(),
            new RealTimeKafkaBench()));
  }

  public Optional<Bench> find(String id) {
    return Optional.ofNullable(benches.get(id));
  }

  public List<Bench> all() {
    return List.copyOf(benches.values());
  }
}
