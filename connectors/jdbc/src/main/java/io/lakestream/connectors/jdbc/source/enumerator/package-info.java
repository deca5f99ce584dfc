/** The JDBC source's enumerator: hands partitions to readers on request, and its state. */
package io.lakestream.connectors.jdbc.source.enumerator;
