package io.lakestream.operators.watermark;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.operators.OperatorErrorClass;

/**
 * An event-time operator was applied to a stream without a watermark. Thrown while the job is
 * built, before anything runs; the message names the operation and what to add. Error class {@link
 * OperatorErrorClass#MISSING_WATERMARK}.
 */
@PublicEvolving
public class MissingWatermarkException extends LakestreamException {
  private static final long serialVersionUID = 1L;

  public MissingWatermarkException(String message) {
    super(OperatorErrorClass.MISSING_WATERMARK, message);
  }
}
