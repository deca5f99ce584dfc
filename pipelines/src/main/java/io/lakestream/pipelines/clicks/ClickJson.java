package io.lakestream.pipelines.clicks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lakestream.api.annotation.Internal;
import io.lakestream.operators.parse.IsoInstantParser;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import java.time.format.DateTimeParseException;

/**
 * Parses clicks: {@code {"click_id": "...", "ad_id": "...", "event_time": "<ISO-8601 instant>"}}. A
 * missing field, a bad time (or one outside years 0001-9999), a key given twice or a value that is
 * not UTF-8 is a {@link RecordParseException} naming the problem.
 */
@Internal
public final class ClickJson implements RecordParser<Click> {
  private static final long serialVersionUID = 1L;

  /** A key twice in one object is an error: one of its values would be dropped silently. */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  @Override
  public Click parse(String raw) throws RecordParseException {
    JsonNode node;
    try {
      node = MAPPER.readTree(raw);
    } catch (JsonProcessingException e) {
      throw new RecordParseException("not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new RecordParseException("expected a JSON object");
    }
    String time = text(node, "event_time");
    try {
      return new Click(
          text(node, "click_id"), text(node, "ad_id"), IsoInstantParser.toEpochMillis(time));
    } catch (DateTimeParseException e) {
      throw new RecordParseException("field event_time: expected an ISO-8601 instant, got " + time);
    }
  }

  private static String text(JsonNode node, String field) throws RecordParseException {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new RecordParseException("field " + field + ": required text, got " + value);
    }
    return value.asText();
  }
}
