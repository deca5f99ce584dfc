/** The JDBC source's reader: one partition's query at a time, rows then the partition's end. */
package io.lakestream.connectors.jdbc.source.reader;
