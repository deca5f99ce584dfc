package io.lakestream.connectors.source;

/**
 * A source could not make a replayed epoch end where the original did (see {@link ReplayedEpochs});
 * the run fails instead of writing rows twice or losing them.
 */
public class ReplayAlignmentException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public ReplayAlignmentException(String message) {
    super(message);
  }
}
