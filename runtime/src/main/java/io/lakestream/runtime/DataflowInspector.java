package io.lakestream.runtime;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.row.KeyColumns;
import io.lakestream.state.query.DeclaresStateSchema;
import io.lakestream.state.query.DescribedSink;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.OperatorSpec;
import io.lakestream.state.query.QueryFingerprint;
import io.lakestream.state.query.RestartCompatibility;
import io.lakestream.state.query.SinkKind;
import io.lakestream.state.query.SinkSpec;
import io.lakestream.state.query.SourceSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.operators.AbstractUdfStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.streaming.api.transformations.ReduceTransformation;
import org.apache.flink.streaming.api.transformations.SinkTransformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;

/**
 * Reads a built dataflow (its Flink transformations) for what the runtime must check before
 * submitting: that every operator has an explicit uid, and the query's fingerprint (sources,
 * stateful operators with their state schema, sinks).
 */
@Internal
public final class DataflowInspector {
  private final List<Transformation<?>> all;

  /**
   * @param roots the environment's transformations (before the stream graph is generated)
   */
  public DataflowInspector(List<Transformation<?>> roots) {
    Map<Integer, Transformation<?>> byId = new LinkedHashMap<>();
    for (Transformation<?> root : roots) {
      for (Transformation<?> t : root.getTransitivePredecessors()) {
        byId.putIfAbsent(t.getId(), t);
      }
    }
    all = new ArrayList<>(byId.values());
    all.sort(Comparator.comparingInt(Transformation::getId));
  }

  /** Physical operators without an explicit uid, as "name (id)". */
  public List<String> operatorsWithoutUid() {
    List<String> missing = new ArrayList<>();
    for (Transformation<?> t : all) {
      if (t instanceof PhysicalTransformation && (t.getUid() == null || t.getUid().isEmpty())) {
        missing.add("'" + t.getName() + "'");
      }
    }
    return missing;
  }

  /**
   * @throws LakestreamException ({@code QUERY_OPERATOR_UID_MISSING}) listing operators without uid
   */
  public void requireUids() {
    List<String> missing = operatorsWithoutUid();
    if (!missing.isEmpty()) {
      throw new LakestreamException(
          QueryErrorClass.QUERY_OPERATOR_UID_MISSING,
          "Every operator of a query needs an explicit uid so its state can be found again after"
              + " a code change; missing on "
              + String.join(", ", missing)
              + ". Add .uid(\"<stable name>\") after each of them.");
    }
  }

  public QueryFingerprint fingerprint(String stateBackend, int maxParallelism) {
    List<SourceSpec> sources = new ArrayList<>();
    List<OperatorSpec> operators = new ArrayList<>();
    List<SinkSpec> sinks = new ArrayList<>();
    for (Transformation<?> t : all) {
      if (t instanceof SourceTransformation<?, ?, ?> source) {
        Object s = source.getSource();
        sources.add(
            s instanceof DescribedSource d
                ? new SourceSpec(t.getUid(), d.sourceType(), d.sourceTarget())
                : new SourceSpec(t.getUid(), s.getClass().getSimpleName(), ""));
      } else if (t instanceof SinkTransformation<?, ?> sink) {
        Object s = sink.getSink();
        sinks.add(
            s instanceof DescribedSink d
                ? new SinkSpec(t.getUid(), d.sinkKind(), d.sinkTarget())
                : new SinkSpec(t.getUid(), SinkKind.CONSOLE, s.getClass().getSimpleName()));
      } else if (t instanceof OneInputTransformation<?, ?> one
          && one.getStateKeySelector() != null) {
        operators.add(
            new OperatorSpec(
                t.getUid(),
                schema(one.getStateKeyType(), one.getOperatorFactory())
                    + keyColumns(one.getStateKeySelector())));
      } else if (t instanceof TwoInputTransformation<?, ?, ?> two
          && two.getStateKeySelector1() != null) {
        operators.add(
            new OperatorSpec(t.getUid(), schema(two.getStateKeyType(), two.getOperatorFactory())));
      } else if (t instanceof ReduceTransformation<?, ?> reduce) {
        operators.add(
            new OperatorSpec(
                t.getUid(),
                "key "
                    + reduce.getKeyTypeInfo()
                    + "; reduce "
                    + reduce.getReducer().getClass().getName()));
      }
    }
    return new QueryFingerprint(sources, operators, sinks, stateBackend, maxParallelism);
  }

  /** Input directories of file-reading sources. */
  public List<URI> inputPaths() {
    List<URI> paths = new ArrayList<>();
    for (Transformation<?> t : all) {
      if (t instanceof SourceTransformation<?, ?, ?> source
          && source.getSource() instanceof DescribedSource d) {
        paths.addAll(d.inputPaths());
      }
    }
    return paths;
  }

  /** Sources that cannot bound a run to the data available at start. */
  public List<String> sourcesWithoutAvailableNow() {
    return sourcesWithout(DescribedSource::supportsAvailableNow);
  }

  /** Whether some source ends epochs at a limit of its own (see {@link DescribedSource}). */
  public boolean anySourceLimitsEpochs() {
    for (Transformation<?> t : all) {
      if (t instanceof SourceTransformation<?, ?, ?> source
          && source.getSource() instanceof DescribedSource d
          && d.limitsEpochs()) {
        return true;
      }
    }
    return false;
  }

  /** Sources that cannot replay committed epochs exactly after a rewind. */
  public List<String> sourcesWithoutExactReplay() {
    return sourcesWithout(DescribedSource::supportsExactReplay);
  }

  private List<String> sourcesWithout(java.util.function.Predicate<DescribedSource> feature) {
    List<String> names = new ArrayList<>();
    for (Transformation<?> t : all) {
      if (t instanceof SourceTransformation<?, ?, ?> source
          && !(source.getSource() instanceof DescribedSource d && feature.test(d))) {
        names.add(t.getUid() == null ? t.getName() : t.getUid());
      }
    }
    return names;
  }

  /**
   * The key's column names where the stream is keyed by {@link KeyColumns}: their values share one
   * key type, so only the names tell {@code dropDuplicates(event_id)} from {@code
   * dropDuplicates(order_id)}, whose state would be read under the wrong keys.
   */
  private static String keyColumns(KeySelector<?, ?> selector) {
    return selector instanceof KeyColumns<?> columns
        ? RestartCompatibility.KEY_COLUMNS + columns.names()
        : "";
  }

  private static String schema(TypeInformation<?> keyType, StreamOperatorFactory<?> factory) {
    String state;
    Object operator =
        factory instanceof SimpleOperatorFactory<?> simple ? simple.getOperator() : factory;
    Object function =
        operator instanceof AbstractUdfStreamOperator<?, ?> udf ? udf.getUserFunction() : operator;
    if (function instanceof DeclaresStateSchema declared) {
      state = declared.stateSchema();
    } else if (operator instanceof DeclaresStateSchema declared) {
      state = declared.stateSchema();
    } else {
      state = function.getClass().getName();
    }
    return "key " + keyType + "; " + state;
  }
}
