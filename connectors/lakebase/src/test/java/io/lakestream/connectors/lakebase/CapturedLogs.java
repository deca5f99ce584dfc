package io.lakestream.connectors.lakebase;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** Captures every log event (all levels, all loggers, with stack traces) while open. */
final class CapturedLogs extends AbstractAppender implements AutoCloseable {
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final LoggerContext context;

  private CapturedLogs(LoggerContext context) {
    super("captured-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
    this.context = context;
  }

  static CapturedLogs capture() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    CapturedLogs logs = new CapturedLogs(context);
    logs.start0();
    return logs;
  }

  private void start0() {
    start();
    Configuration configuration = context.getConfiguration();
    LoggerConfig root = configuration.getRootLogger();
    root.addAppender(this, Level.ALL, null);
    root.setLevel(Level.ALL);
    configuration.getLoggers().values().forEach(logger -> logger.setLevel(Level.ALL));
    context.updateLoggers();
  }

  @Override
  public void append(LogEvent event) {
    StringBuilder line = new StringBuilder(event.getMessage().getFormattedMessage());
    for (Throwable t = event.getThrown(); t != null; t = t.getCause()) {
      line.append(" | ").append(t);
    }
    lines.add(line.toString());
  }

  List<String> lines() {
    return lines;
  }

  @Override
  public void close() {
    stop();
    // back to the logging configuration as loaded, whatever levels were changed
    context.reconfigure();
  }
}
