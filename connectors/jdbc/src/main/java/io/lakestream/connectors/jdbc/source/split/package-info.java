/** The JDBC source's splits: partitions of the numeric partition column, and their serializer. */
package io.lakestream.connectors.jdbc.source.split;
