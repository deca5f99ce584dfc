package io.lakestream.connectors.lakebase.connect;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.CredentialProvider;
import io.lakestream.connectors.lakebase.LakebaseSinkException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Amazon RDS / Aurora PostgreSQL IAM authentication tokens (option {@code credential=rds-iam}): the
 * password is a SigV4-presigned {@code connect} request for service {@code rds-db}, {@code
 * <host>:<port>/?Action=connect&DBUser=<user>&X-Amz-Algorithm=...&X-Amz-Signature=...}, valid for
 * 15 minutes. The AWS SDK's RDS module ({@code RdsUtilities.generateAuthenticationToken}) is not
 * available to this build, so the token is presigned here with the SDK's own SigV4 signer ({@code
 * AwsV4HttpSigner}, query-string location, 900 s expiry), which is what RdsUtilities does.
 *
 * <p>AWS credentials come from the SDK's default chain (environment, system properties, profile,
 * web identity, container and instance roles), resolved on the JVM that connects and never
 * serialized. A token is reused for 10 minutes, then signed again; {@link #invalidate()} forgets
 * it. RDS accepts IAM tokens over TLS only: give the endpoint as a JDBC URL with {@code
 * sslmode=require} (or stricter).
 *
 * <p>Failures: no AWS credentials (or the chain fails): {@link LakebaseSinkException} of class
 * {@code JDBC_STREAMING_SINK_AUTHENTICATION_FAILED} saying where they are looked for. The token
 * holds the access key id (as AWS's own does) but never the secret key; no message, log line or
 * {@code toString} holds the token.
 */
@PublicEvolving
public final class RdsIamCredentials implements CredentialProvider {
  private static final long serialVersionUID = 1L;

  /** How long a token is valid. */
  public static final Duration TOKEN_LIFETIME = Duration.ofMinutes(15);

  /** How long a token is reused before a new one is signed. */
  public static final Duration REUSE = Duration.ofMinutes(10);

  private final String host;
  private final int port;
  private final String user;
  private final String region;
  private transient Supplier<AwsCredentialsIdentity> credentials;
  private transient Clock clock;
  private transient String token;
  private transient Instant refreshAt;

  RdsIamCredentials(
      String host,
      int port,
      String user,
      String region,
      Supplier<AwsCredentialsIdentity> credentials,
      Clock clock) {
    this.host = host;
    this.port = port;
    this.user = user;
    this.region = region;
    this.credentials = credentials;
    this.clock = clock;
  }

  /**
   * Tokens for {@code user} at {@code host:port} in {@code region}, signed with default
   * credentials.
   */
  public static RdsIamCredentials of(String host, int port, String user, String region) {
    return new RdsIamCredentials(host, port, user, region, null, Clock.systemUTC());
  }

  @Override
  public synchronized String password() {
    Instant now = clock().instant();
    if (token == null || !now.isBefore(refreshAt)) {
      token = sign(now);
      refreshAt = now.plus(REUSE);
    }
    return token;
  }

  @Override
  public synchronized void invalidate() {
    token = null;
  }

  @Override
  public String source() {
    return "option credential=rds-iam (user "
        + user
        + " needs the rds_iam role and an IAM policy allowing rds-db:connect; region "
        + region
        + " from option awsregion; AWS credentials from the default chain)";
  }

  private String sign(Instant now) {
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.GET)
            .protocol("https")
            .host(host)
            .port(port)
            .encodedPath("/")
            .putRawQueryParameter("DBUser", user)
            .putRawQueryParameter("Action", "connect")
            .build();
    AwsCredentialsIdentity identity = identity();
    String url =
        AwsV4HttpSigner.create()
            .sign(
                r ->
                    r.identity(identity)
                        .request(request)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "rds-db")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(
                            AwsV4HttpSigner.AUTH_LOCATION,
                            AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, TOKEN_LIFETIME)
                        .putProperty(
                            HttpSigner.SIGNING_CLOCK, Clock.fixed(now, java.time.ZoneOffset.UTC)))
            .request()
            .getUri()
            .toString();
    return url.substring(url.indexOf("://") + 3);
  }

  private AwsCredentialsIdentity identity() {
    try {
      if (credentials == null) {
        DefaultCredentialsProvider chain = DefaultCredentialsProvider.builder().build();
        credentials = chain::resolveCredentials;
      }
      return credentials.get();
    } catch (SdkClientException e) {
      throw new LakebaseSinkException(
          LakebaseSinkException.AUTHENTICATION_FAILED,
          "option credential=rds-iam found no AWS credentials to sign the RDS token with: "
              + e.getMessage()
              + ". Set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile (AWS_PROFILE) or a role"
              + " for the process.");
    }
  }

  private Clock clock() {
    if (clock == null) {
      clock = Clock.systemUTC();
    }
    return clock;
  }

  @Override
  public String toString() {
    return "RdsIamCredentials[" + user + "@" + host + ":" + port + ", " + region + "]";
  }
}
