/**
 * How the Lakebase sink reaches its database: credential providers for short-lived tokens ({@link
 * io.lakestream.connectors.lakebase.connect.DatabricksOAuthCredentials}, {@link
 * io.lakestream.connectors.lakebase.connect.RdsIamCredentials}) and the resolution of Lakebase
 * endpoint ids ({@code <project-id>.<branch-id>[.<endpoint-id>]}) to host names ({@link
 * io.lakestream.connectors.lakebase.connect.EndpointResolver}). No secret is ever put in a message,
 * a log line, a URL or a {@code toString}.
 */
package io.lakestream.connectors.lakebase.connect;
