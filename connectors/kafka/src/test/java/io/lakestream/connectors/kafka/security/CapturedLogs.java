package io.lakestream.connectors.kafka.security;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Records every log line (INFO and above, message and stack traces rendered) written while it is
 * open, from every logger: to check that no secret is ever logged.
 */
public final class CapturedLogs extends AbstractAppender implements AutoCloseable {

  private final List<String> lines = new ArrayList<>();
  private final Level previousLevel;

  private CapturedLogs() {
    super("captured-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    LoggerConfig root = config.getRootLogger();
    previousLevel = root.getLevel();
    start();
    root.addAppender(this, Level.INFO, null);
    if (previousLevel.isMoreSpecificThan(Level.INFO)) {
      root.setLevel(Level.INFO);
    }
    context.updateLoggers();
  }

  public static CapturedLogs open() {
    return new CapturedLogs();
  }

  @Override
  public synchronized void append(LogEvent event) {
    StringBuilder line = new StringBuilder(event.getMessage().getFormattedMessage());
    for (Throwable t = event.getThrown(); t != null; t = t.getCause()) {
      line.append(" | ").append(t);
    }
    lines.add(line.toString());
  }

  public synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    LoggerConfig root = context.getConfiguration().getRootLogger();
    root.removeAppender(getName());
    root.setLevel(previousLevel);
    context.updateLoggers();
    stop();
  }
}
