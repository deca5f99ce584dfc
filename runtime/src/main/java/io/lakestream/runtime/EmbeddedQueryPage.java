package io.lakestream.runtime;

import io.lakestream.runtime.ui.QueryPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link QueryPage} of the embedded runs in this JVM: one page, opened with the run's other
 * loopback ports ({@link FlinkSettings#embeddedPorts}) and kept for the JVM's life (its threads are
 * daemons), so queries that ended stay on it. Each embedded run registers its location and logs its
 * query's address on the page (logger {@code io.lakestream.progress.urls}, like the metrics URL).
 */
final class EmbeddedQueryPage {
  private static final Logger LOG = LoggerFactory.getLogger("io.lakestream.progress.urls");

  private static QueryPage page;

  private EmbeddedQueryPage() {}

  /** Opens the page unless it is open: it binds a free loopback port at once. */
  static synchronized QueryPage open() {
    if (page == null) {
      try {
        page = QueryPage.start(0, List.of());
      } catch (IOException e) {
        throw new UncheckedIOException("no free loopback port for the query page", e);
      }
    }
    return page;
  }

  /** Shows {@code query} on the page and logs where. */
  static void register(QueryExecution query, java.net.URI location, Trigger trigger) {
    QueryPage p = open();
    p.running(
        new QueryPage.LiveRun(
            location, query.runId(), query.appId(), describe(trigger), query::isActive));
    LOG.info("Query page of '{}': {}", query.name(), p.url() + "#q=" + QueryPage.key(location));
  }

  /** The trigger as a user writes it ({@link Trigger#parse}). */
  static String describe(Trigger trigger) {
    if (trigger instanceof Trigger.ProcessingTime t) {
      return "processingTime=" + text(t.interval());
    }
    if (trigger instanceof Trigger.RealTime t) {
      return "realTime=" + text(t.checkpointInterval());
    }
    if (trigger instanceof Trigger.AvailableNow) {
      return "availableNow";
    }
    return trigger instanceof Trigger.Once ? "once" : "default";
  }

  private static String text(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
