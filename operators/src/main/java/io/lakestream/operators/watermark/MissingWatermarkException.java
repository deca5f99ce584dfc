package io.lakestream.operators.watermark;

/**
 * An event-time operator was applied to a stream without a watermark. Thrown while the job is
 * built, before anything runs; the message names the operation and what to add.
 */
public class MissingWatermarkException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public MissingWatermarkException(String message) {
    super(message);
  }
}
