package io.lakestream.connectors.delta.cdf;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.delta.DeltaTableException;

/**
 * The change data feed of a Delta table was requested for a version at which the table did not
 * record it: the table property {@code delta.enableChangeDataFeed} was not {@code true} in the
 * metadata in effect at that version. Changes of such versions cannot be reconstructed; the message
 * names the version and says how to enable the feed (it applies to versions committed afterwards
 * only) or which range to read instead. Error class {@link
 * DeltaErrorClass#DELTA_CHANGE_DATA_FEED_NOT_ENABLED}.
 */
@PublicEvolving
public final class ChangeDataFeedNotEnabledException extends DeltaTableException {
  private static final long serialVersionUID = 1L;

  private final long version;

  public ChangeDataFeedNotEnabledException(String message, long version) {
    super(DeltaErrorClass.DELTA_CHANGE_DATA_FEED_NOT_ENABLED, message);
    this.version = version;
  }

  /** The first requested version at which the change data feed was not enabled. */
  public long version() {
    return version;
  }
}
