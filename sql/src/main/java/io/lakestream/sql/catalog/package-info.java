/**
 * {@code CREATE CATALOG ... WITH ('type' = 'delta')}: databases as directories, Delta tables as
 * catalog tables whose schema, partitioning, properties and primary key come from the Delta log.
 */
package io.lakestream.sql.catalog;
