/** The JDBC source ({@link io.lakestream.connectors.jdbc.source.JdbcSource}). */
package io.lakestream.connectors.jdbc.source;
