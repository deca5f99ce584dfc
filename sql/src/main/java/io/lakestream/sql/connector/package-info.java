/**
 * What lakestream's SQL connectors share: table factories whose options are checked by the
 * connector's options catalog ({@link io.lakestream.sql.connector.CatalogCheckedTableFactory}).
 */
package io.lakestream.sql.connector;
