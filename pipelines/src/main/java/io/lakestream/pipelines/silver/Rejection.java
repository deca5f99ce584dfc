package io.lakestream.pipelines.silver;

import io.lakestream.api.annotation.Internal;
import java.util.Objects;

/**
 * A decision to quarantine one record: the {@link RejectReason} and a message about this record
 * (for example {@code "amount -3.50 is negative"}).
 *
 * @param reason the category, stored in the quarantine table's {@code reason} column
 * @param error the details, stored in its {@code error} column
 */
@Internal
public record Rejection(RejectReason reason, String error) {
  public Rejection {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(error, "error");
  }
}
