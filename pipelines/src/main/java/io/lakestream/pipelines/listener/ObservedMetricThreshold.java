package io.lakestream.pipelines.listener;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.runtime.QueryListener;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails a query whose epoch's {@code observedMetrics.<observation>.<metric>} passes a threshold,
 * e.g. the silver pipeline's malformed ratio above 5% ({@code silver_quality.malformedRatio>0.05}):
 * the query stops with a savepoint and ends as failed, naming the epoch and the value ({@link
 * StreamingQuery#failWith}), so bad data stops the pipeline instead of flowing on; once the cause
 * is fixed the next run resumes at the savepoint. The check runs on each epoch's published values,
 * which are exact under replay. An epoch without the value (no rows, so no ratio) passes.
 */
@PublicEvolving
public final class ObservedMetricThreshold implements QueryListener {
  private static final Logger LOG = LoggerFactory.getLogger(ObservedMetricThreshold.class);
  private static final Pattern SPEC =
      Pattern.compile("\\s*([^.<>\\s]+)\\.([^.<>\\s]+)\\s*>\\s*(-?[0-9.]+(?:[eE]-?[0-9]+)?)\\s*");

  private final String observation;
  private final String metric;
  private final double threshold;
  private volatile boolean tripped;

  private ObservedMetricThreshold(String observation, String metric, double threshold) {
    this.observation = observation;
    this.metric = metric;
    this.threshold = threshold;
  }

  /** Fails the query when {@code observation.metric} of an epoch is above {@code threshold}. */
  public static ObservedMetricThreshold above(String observation, String metric, double threshold) {
    return new ObservedMetricThreshold(observation, metric, threshold);
  }

  /**
   * Parses {@code <observation>.<metric>><threshold>}, e.g. {@code
   * silver_quality.malformedRatio>0.05}.
   *
   * @throws IllegalArgumentException for text of another shape, saying the shape
   */
  public static ObservedMetricThreshold parse(String text) {
    Matcher m = SPEC.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not <observation>.<metric>><number>, e.g."
              + " silver_quality.malformedRatio>0.05");
    }
    return above(m.group(1), m.group(2), Double.parseDouble(m.group(3)));
  }

  @Override
  public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
    JsonNode value = progress.json().path("observedMetrics").path(observation).path(metric);
    if (tripped || !value.isNumber() || value.asDouble() <= threshold) {
      return;
    }
    tripped = true;
    String reason =
        String.format(
            Locale.ROOT,
            "observedMetrics.%s.%s was %s in epoch %d, above the threshold %s",
            observation,
            metric,
            value.asText(),
            progress.batchId(),
            threshold);
    LOG.error("Query '{}': {}; stopping it as failed", query.name(), reason);
    query.failWith(reason);
  }

  @Override
  public String toString() {
    return observation + "." + metric + ">" + threshold;
  }
}
