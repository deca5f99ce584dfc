package io.lakestream.connectors.lakebase.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/** The shape of the RDS IAM token: a presigned connect URL without the secret key. */
class RdsIamCredentialsTest {
  private static final String KEY_ID = "AKIAIOSFODNN7EXAMPLE";
  private static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String HOST = "mydb.c1abcdefgh.eu-west-1.rds.amazonaws.com";

  @Test
  void aTokenIsAPresignedConnectRequest() throws Exception {
    Clock clock = Clock.fixed(Instant.parse("2026-12-06T10:00:00Z"), ZoneOffset.UTC);
    RdsIamCredentials tokens =
        new RdsIamCredentials(
            HOST,
            5432,
            "app_user",
            "eu-west-1",
            () -> AwsCredentialsIdentity.create(KEY_ID, SECRET_KEY),
            clock);
    String token = tokens.password();

    assertThat(token)
        .startsWith(HOST + ":5432/?")
        .contains("Action=connect")
        .contains("DBUser=app_user")
        .contains("X-Amz-Algorithm=AWS4-HMAC-SHA256")
        .contains("X-Amz-Date=20261206T100000Z")
        .contains("X-Amz-Expires=900")
        .contains("X-Amz-SignedHeaders=host")
        .contains("X-Amz-Credential=" + KEY_ID + "%2F20261206%2Feu-west-1%2Frds-db%2Faws4_request")
        .containsPattern("X-Amz-Signature=[0-9a-f]{64}")
        .doesNotContain(SECRET_KEY)
        .doesNotContain("https://");
    // the same instant signs the same token; another key signs another
    assertThat(tokens.password()).isEqualTo(token);
    RdsIamCredentials other =
        new RdsIamCredentials(
            HOST,
            5432,
            "app_user",
            "eu-west-1",
            () -> AwsCredentialsIdentity.create(KEY_ID, SECRET_KEY + "x"),
            clock);
    assertThat(other.password()).isNotEqualTo(token);

    String shown = tokens.toString() + tokens.source();
    String serialized =
        new String(InstantiationUtil.serializeObject(tokens), StandardCharsets.ISO_8859_1);
    assertThat(shown + serialized).doesNotContain(SECRET_KEY, "X-Amz-Signature");
  }

  @Test
  void aTokenIsRenewedBeforeItsFifteenMinutesRunOut() {
    Instant start = Instant.parse("2026-12-06T10:00:00Z");
    Instant[] now = {start};
    Clock clock =
        new Clock() {
          @Override
          public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return now[0];
          }
        };
    RdsIamCredentials tokens =
        new RdsIamCredentials(
            HOST,
            5432,
            "app_user",
            "eu-west-1",
            () -> AwsCredentialsIdentity.create(KEY_ID, SECRET_KEY),
            clock);
    String first = tokens.password();
    now[0] = start.plus(Duration.ofMinutes(9));
    assertThat(tokens.password()).isEqualTo(first);
    now[0] = start.plus(RdsIamCredentials.REUSE);
    String second = tokens.password();
    assertThat(second).isNotEqualTo(first).contains("X-Amz-Date=20261206T101000Z");
    tokens.invalidate();
    now[0] = now[0].plusSeconds(1);
    assertThat(tokens.password()).contains("X-Amz-Date=20261206T101001Z");
  }
}
