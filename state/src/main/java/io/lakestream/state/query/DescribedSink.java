package io.lakestream.state.query;

import io.lakestream.api.annotation.Internal;

/**
 * A sink that tells the restart checks what it is. Sinks that do not implement it are treated as
 * {@link SinkKind#CONSOLE}-like test sinks named by their class.
 */
@Internal
public interface DescribedSink {

  SinkKind sinkKind();

  /** Where it writes (table path, topic). */
  String sinkTarget();
}
