package io.lakestream.sql.connector.format;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.ColumnType;
import java.io.Serializable;

/**
 * A column of a table that is a field of its records' values (JSON or Avro).
 *
 * @param name the column's name, which is the field's (matched ignoring case when no field has the
 *     exact name)
 * @param type the column's type
 * @param required whether the column is declared NOT NULL, so a value without the field (or with
 *     null) is a dead letter
 */
@Internal
public record ValueField(String name, ColumnType type, boolean required) implements Serializable {}
