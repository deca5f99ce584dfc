package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.lakebase.connect.DatabricksOAuthCredentials;
import io.lakestream.connectors.lakebase.connect.RdsIamCredentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Options of managed credentials: chosen by option credential, checked before any connection. */
class LakebaseCredentialOptionsTest {
  @TempDir Path dir;

  private static Map<String, String> minimal() {
    Map<String, String> options = new HashMap<>();
    options.put("endpoint", "db.example.com");
    options.put("dbtable", "orders");
    options.put("user", "app");
    options.put("checkpointLocation", "/chk/q1");
    return options;
  }

  private static LakebaseSinkConfig parse(Map<String, String> options) {
    return LakebaseSinkOptions.parse(options, null, null);
  }

  @Test
  void credentialIsChosenIgnoringCaseAndAnUnknownOneListsTheValidOnes() throws Exception {
    Path client = dir.resolve("sp.properties");
    Files.writeString(client, "client_id=a\nclient_secret=b\n");
    Map<String, String> options = minimal();
    options.put("CREDENTIAL", "Databricks_OAuth");
    options.put("WorkspaceHost", "dbc-1234.cloud.databricks.com");
    options.put("oauthclientfile", client.toString());
    CredentialProvider oauth = parse(options).endpoint().credentials();
    assertThat(oauth).isInstanceOf(DatabricksOAuthCredentials.class);
    assertThat(((DatabricksOAuthCredentials) oauth).workspace().toString())
        .isEqualTo("https://dbc-1234.cloud.databricks.com");

    options.put("CREDENTIAL", "kerberos");
    assertThatThrownBy(() -> parse(options))
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_OPTIONS))
        .hasMessageContaining("credential")
        .hasMessageContaining("password")
        .hasMessageContaining("databricks-oauth")
        .hasMessageContaining("rds-iam");
  }

  @Test
  void databricksOAuthNeedsTheWorkspaceAndNoPassword() {
    Map<String, String> options = minimal();
    options.put("credential", "databricks-oauth");
    options.put("oauthclientfile", "/run/sp.properties");
    assertThatThrownBy(() -> parse(options)).hasMessageContaining("needs option workspacehost");
    options.put("workspacehost", "https://dbc-1.cloud.databricks.com");
    options.put("password", "x");
    assertThatThrownBy(() -> parse(options)).hasMessageContaining("leave out option password");
  }

  @Test
  void rdsIamSignsForTheEndpointsHostAndNeedsARegion() {
    Map<String, String> options = minimal();
    options.put("endpoint", "jdbc:postgresql://mydb.abc.eu-west-1.rds.amazonaws.com:5433/app");
    options.put("credential", "rds-iam");
    options.put("awsregion", "eu-west-1");
    LakebaseSinkConfig config = parse(options);
    assertThat(config.endpoint().credentials())
        .isInstanceOf(RdsIamCredentials.class)
        .hasToString("RdsIamCredentials[app@mydb.abc.eu-west-1.rds.amazonaws.com:5433, eu-west-1]");

    options.remove("awsregion");
    if (System.getenv("AWS_REGION") == null) {
      assertThatThrownBy(() -> parse(options)).hasMessageContaining("option awsregion");
    }
    options.put("awsregion", "eu-west-1");
    options.put("oauthclientfile", "/run/sp.properties");
    assertThatThrownBy(() -> parse(options))
        .hasMessageContaining("oauthclientfile is used only with credential=databricks-oauth");
  }

  @Test
  void anEndpointIdNeedsAResolver() {
    Map<String, String> options = minimal();
    options.put("endpoint", "shop.production.primary");
    // without workspacehost the form is a host name (it may be one)
    assertThat(parse(options).endpoint().jdbcUrl())
        .isEqualTo("jdbc:postgresql://shop.production.primary/databricks_postgres");
    options.put("workspacehost", "https://dbc-1.cloud.databricks.com");
    options.put("password", "token");
    assertThat(parse(options).endpoint().jdbcUrl())
        .isEqualTo("lakebase:shop.production.primary/databricks_postgres");
    // a host or JDBC URL keeps working with a workspace
    options.put("endpoint", "db.example.com:6543");
    assertThat(parse(options).endpoint().jdbcUrl())
        .isEqualTo("jdbc:postgresql://db.example.com:6543/databricks_postgres");
  }

  @Test
  void anEndpointIdThatIsNoHostSaysToSetWorkspaceHost() {
    Map<String, String> options = minimal();
    options.put("endpoint", "shop.production.primary");
    options.put("password", "x");
    PostgresEndpoint endpoint = parse(options).endpoint();
    assertThatThrownBy(endpoint::connect)
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_OPTIONS))
        .hasMessageContaining("set option workspacehost");
  }
}
