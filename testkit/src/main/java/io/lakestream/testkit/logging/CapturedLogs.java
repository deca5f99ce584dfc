package io.lakestream.testkit.logging;

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
 * Records the INFO-and-above lines one logger (and its children) writes while open, whatever level
 * the test's log4j configuration gives it: {@code CapturedLogs.of("io.lakestream.runtime")}. Lines
 * are the formatted messages. Closing restores the configuration. Not for parallel tests that log
 * through the same logger.
 */
public final class CapturedLogs extends AbstractAppender implements AutoCloseable {
  private final List<String> lines = new ArrayList<>();
  private final String loggerName;
  private final LoggerConfig added;
  private final Level previousLevel;

  private CapturedLogs(String loggerName) {
    super("captured-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
    this.loggerName = loggerName;
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    LoggerConfig own = config.getLoggerConfig(loggerName);
    if (own.getName().equals(loggerName)) {
      added = null;
    } else {
      own = new LoggerConfig(loggerName, Level.INFO, true);
      config.addLogger(loggerName, own);
      added = own;
    }
    previousLevel = own.getLevel();
    start();
    own.addAppender(this, Level.INFO, null);
    if (previousLevel.isMoreSpecificThan(Level.INFO)) {
      own.setLevel(Level.INFO);
    }
    context.updateLoggers();
  }

  /** Starts capturing the lines of {@code loggerName} and the loggers below it. */
  public static CapturedLogs of(String loggerName) {
    return new CapturedLogs(loggerName);
  }

  @Override
  public synchronized void append(LogEvent event) {
    lines.add(event.getMessage().getFormattedMessage());
  }

  /** The lines captured so far, oldest first. */
  public synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    if (added != null) {
      config.removeLogger(loggerName);
    } else {
      LoggerConfig own = config.getLoggerConfig(loggerName);
      own.removeAppender(getName());
      own.setLevel(previousLevel);
    }
    context.updateLoggers();
    stop();
  }
}
