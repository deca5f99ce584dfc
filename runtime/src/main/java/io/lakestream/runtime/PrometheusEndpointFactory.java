package io.lakestream.runtime;

import io.lakestream.api.annotation.Internal;
import java.util.Properties;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Makes the {@link PrometheusEndpoint} that an embedded run configures as its metric reporter
 * ({@code metrics.reporter.lakestream.factory.class}); found by Flink through {@code
 * META-INF/services}.
 */
@Internal
public final class PrometheusEndpointFactory implements MetricReporterFactory {
  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    return new PrometheusEndpoint();
  }
}
