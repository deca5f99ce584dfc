package io.lakestream.runtime.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RedactionTest {
  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void secretFieldsUrlPasswordsAndSecretParametersAreReplaced() throws Exception {
    JsonNode in =
        mapper.readTree(
            "{\"sink\":{\"description\":\"jdbc:postgresql://app:s3cr3t@db:5432/x?sslmode=require"
                + "&password=p4ss\",\"password\":\"p4ss\",\"accessKey\":\"AKIA1\"},"
                + "\"sources\":[{\"description\":\"s3a://b/in token=tok1, region=eu\","
                + "\"endOffset\":{\"tokens-0\":12}}],\"numSecretKeys\":3}");
    String out = mapper.writeValueAsString(Redaction.redact(in));
    assertThat(out)
        .doesNotContain("s3cr3t", "p4ss", "AKIA1", "tok1")
        .contains("postgresql://app:<redacted>@db:5432/x?sslmode=require&password=<redacted>")
        .contains("\"password\":\"<redacted>\"")
        .contains("token=<redacted>, region=eu")
        .contains("\"tokens-0\":12")
        .contains("\"numSecretKeys\":3");
    assertThat(in.toString()).contains("s3cr3t"); // the input is left as it was
  }

  @Test
  void keysOfTheSameLocationWrittenDifferentlyAreEqual() throws Exception {
    String key = QueryLocations.key(new java.net.URI("file:/tmp/q"));
    assertThat(QueryLocations.key(new java.net.URI("file:///tmp/q/"))).isEqualTo(key);
    assertThat(QueryLocations.key(new java.net.URI("/tmp/q"))).isEqualTo(key);
    assertThat(QueryLocations.key(new java.net.URI("s3://b/tmp/q"))).isNotEqualTo(key);
  }
}
